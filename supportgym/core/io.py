"""Atomic file writes (a reader never sees a half-written result), and reading a YAML data file with clear errors."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from .errors import ConfigError, DataFormatError


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _not_a_file(path: Path) -> bool:
    return path.exists() and not path.is_file()


def write_file_atomic(path: str | os.PathLike[str], write: Callable[[Path], object], suffix: str = ".tmp") -> Path:
    """Atomically put at ``path`` the file that ``write(tmp)`` creates at a fresh temporary path beside it.

    For writers that take a path, not text (``torch.save``, ``np.savez``, ``shutil.copyfile``): ``suffix`` ends the
    temporary name, for writers that add their own extension when it is missing (``np.save`` adds ``.npy``).
    """
    # the rename replaces whatever is at the path: a link would become a file beside a stale target, so the
    # target is written; a device or pipe (/dev/null) would be replaced by a file, so it is refused
    given, path = Path(path), Path(os.path.realpath(path))
    if _not_a_file(path):
        raise ConfigError(f"{path}: not an ordinary file (a folder, device, pipe or socket); allowed: a file path")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=suffix, dir=path.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        write(tmp)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        # mkstemp creates 0600; give the result the permissions a plain open() would.
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return given


def write_text_atomic(path: str | os.PathLike[str], text: str) -> Path:
    return write_file_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def write_json_atomic(path: str | os.PathLike[str], obj: Any) -> Path:
    return write_text_atomic(path, json.dumps(obj, indent=2, sort_keys=False, default=str) + "\n")


def _nearest_existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        if path.is_symlink():  # a link to nothing: the write would fail on it after the run
            raise ConfigError(f"{path} is a broken link (to {os.readlink(path)}); allowed: a path that exists or "
                              "can be created")
        path = path.parent
    return path


def _probe_below(path: Path, what: str) -> None:
    """Can a file be created where ``path`` (which may not exist yet) will be? Tried in its nearest existing folder:
    permissions alone do not tell (/proc, read-only mounts)."""
    folder = _nearest_existing(path)
    if not folder.is_dir():
        raise ConfigError(f"{what}: {folder} is a file, not a folder")
    try:
        fd, tmp = tempfile.mkstemp(prefix=".supportgym-probe.", dir=folder)
    except OSError as err:
        raise ConfigError(f"{what}: cannot write in {folder} ({err.strerror or err})") from None
    os.close(fd)
    os.unlink(tmp)


def check_output_file(path: str | os.PathLike[str], option: str = "--out", example: str = "results.json") -> Path:
    """Fail before any work when a result could not be written to ``path``: a folder, or a place that is not
    writable. (The atomic write would otherwise fail only after the run, losing it.)"""
    path = Path(path)
    what = f"{option} {path}"
    if path.is_dir():
        raise ConfigError(f"{what}: is a folder; allowed: a file path, e.g. {path / example}")
    if _not_a_file(Path(os.path.realpath(path))):
        raise ConfigError(f"{what}: not an ordinary file (a device, pipe or socket); allowed: a file path, "
                          f"e.g. {example}")
    _probe_below(path.parent, what)
    return path


def check_output_folder(path: str | os.PathLike[str], option: str = "--out", keep: str = "results.json") -> Path:
    """Fail before any work when ``path`` cannot hold a new run: a file, a place that is not writable, or a folder
    that already holds ``keep`` from an earlier run (which would be overwritten)."""
    path = Path(path)
    what = f"{option} {path}"
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{what}: is a file; allowed: a folder (results.json, results.md and report.html "
                          "are written inside it)")
    if (path / keep).exists():
        raise ConfigError(f"{what}: already holds {keep} of an earlier run; continue it with --resume {path} "
                          "or choose another folder")
    _probe_below(path, what)
    return path


def read_yaml(path: Path) -> Any:
    """The YAML document in ``path``. A file that is not UTF-8 (a UTF-16 file from a Windows editor) or not YAML is a
    DataFormatError that names the file and what is allowed; one that cannot be read raises OSError for the caller to
    say what to set."""
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as err:
        raise DataFormatError(path, f"not UTF-8 (byte {err.object[err.start]:#04x} at offset {err.start}); allowed: a "
                                    "YAML file saved as UTF-8") from None
    except yaml.YAMLError as err:
        raise DataFormatError(path, f"not valid YAML: {err}") from None
