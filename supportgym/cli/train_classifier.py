"""``supportgym train classifier --env inbox``: the learned triage baseline (scikit-learn, CPU, minutes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer
from pydantic import ValidationError
from rich.console import Console

from ..core.errors import ConfigError
from ..core.io import check_output_file
from ..core.numbers import SEED_MAX
from ..eval.formatting import shown
from .app import train_app

console = Console()


@train_app.command("classifier")
def classifier_command(
    env: str = typer.Option("inbox", help="only inbox has a classifier agent"),
    out: Optional[Path] = typer.Option(None, help="checkpoint path (.npz + .json); default runs/inbox_classifier.npz "
                                                  "(the committed one under supportgym/agents/checkpoints/ only when "
                                                  "named here)"),
    generated: Optional[int] = typer.Option(None, help="generated train emails (default 12000)"),
    generated_validation: Optional[int] = typer.Option(None, help="generated validation emails (default 2000)"),
    real_weight: Optional[float] = typer.Option(None, help="weight of real mail relative to its size (default 4)"),
    balance_power: Optional[float] = typer.Option(None, help="class balancing inside each source, 0..1 (default 1)"),
    hard: bool = typer.Option(True, help="add hard:train / hard:validation where that source exists"),
    c: Optional[list[float]] = typer.Option(None, "--c", help="regularisation strengths to try (repeat the option)"),
    max_features: Optional[int] = typer.Option(None, help="vocabulary size (default 60000)"),
    corpora: Optional[Path] = typer.Option(None, help="real-mail corpora folder (default $SUPPORTGYM_CORPORA or "
                                                      "../shared/corpora)"),
    real_part: Optional[list[str]] = typer.Option(None, "--real-part", help="real parts to train on (repeat; "
                                                   "default train and validation, skipped with a note where no "
                                                   "corpora folder is found; 'none' for none; --cv folds over them)"),
    handwritten_part: Optional[list[str]] = typer.Option(None, "--handwritten-part", help="handwritten parts to train on "
                                                          "(repeat; default train and validation; 'none' for none)"),
    handwritten_weight: Optional[float] = typer.Option(None, help="weight of the hand-written mail relative to its "
                                                                  "size (default 10)"),
    companies_part: Optional[list[str]] = typer.Option(None, "--companies-part", help="companies:* parts to train on "
                                                        "(repeat; default train; 'none' for none)"),
    companies_weight: Optional[float] = typer.Option(None, help="weight of the other companies' mail relative to its "
                                                                "size (default 30)"),
    era_part: Optional[list[str]] = typer.Option(None, "--era-part", help="era:* parts to train on (mail in 2003-2005 "
                                                  "styles; repeat; default train; 'none' for none)"),
    era_weight: Optional[float] = typer.Option(None, help="weight of the era mail relative to its size (default 15)"),
    bias: Optional[list[str]] = typer.Option(None, "--bias", help="route logit offset ROUTE=X (repeat); default: the "
                                                                 "offsets chosen by cross-validation"),
    meta_scale: Optional[float] = typer.Option(None, help="value of each cue feature beside the normalised text"),
    spam_stack: Optional[float] = typer.Option(None, help="weight of the NB-SVM spam head's log-odds on the trash "
                                                          "logit (default 0.5; 0: route head alone)"),
    spam_c: Optional[float] = typer.Option(None, help="inverse regularisation strength of the spam head (default 4)"),
    # numpy's seed range: -1 started training (red team of 5 Dec)
    seed: int = typer.Option(0, min=0, max=SEED_MAX, help="random seed, 0 to 2**32-1"),
    cv: bool = typer.Option(False, "--cv", help="only cross-validate the route head inside the real parts (5 folds) "
                                                 "and print the out-of-fold figures; writes no checkpoint"),
    sweep_trash: Optional[list[float]] = typer.Option(None, "--sweep-trash", help="with --cv: also report these trash "
                                                                                "offsets (repeat)"),
) -> None:
    """TF-IDF + one class-balanced logistic head per field, on generated train + real:train + real:validation
    + handwritten:train + handwritten:validation + companies:train + era:train."""
    if env != "inbox":
        raise ConfigError(f"train classifier: env {env!r} has no classifier agent; use --env inbox")
    from ..train.classifier import OPTIONS, ClassifierConfig, cross_validate_real, train_classifier

    given: dict[str, Any] = {
        "generated": generated, "generated_validation": generated_validation, "real_weight": real_weight,
        "balance_power": balance_power, "c_grid": c or None, "max_features": max_features,
        "corpora": str(corpora) if corpora else None, "out": str(out) if out else None}
    if bias:
        try:
            given["route_bias"] = {k.strip(): float(v) for k, v in (b.split("=", 1) for b in bias)}
        except ValueError:
            raise ConfigError(f"--bias takes ROUTE=NUMBER, e.g. --bias trash=0.2; got {bias}") from None
    given.update(real_parts=None if real_part is None else [p for p in real_part if p != "none"],
                 meta_scale=meta_scale, handwritten_weight=handwritten_weight, spam_stack=spam_stack, spam_c=spam_c,
                 handwritten_parts=None if handwritten_part is None else [p for p in handwritten_part if p != "none"],
                 companies_weight=companies_weight, era_weight=era_weight,
                 era_parts=None if era_part is None else [p for p in era_part if p != "none"],
                 companies_parts=None if companies_part is None else [p for p in companies_part if p != "none"])
    fields = {k: v for k, v in given.items() if v is not None}
    fields.update(hard=hard, seed=seed)
    try:
        cfg = ClassifierConfig(**fields)
    except ValidationError as err:  # checked before any work, named as the user typed it
        raise ConfigError("; ".join(_option_error(e, OPTIONS) for e in err.errors())) from None
    if real_part is None and not _corpora_found(cfg.corpora):
        console.print("[yellow]note:[/] no corpora folder found: training without real mail (set "
                      "$SUPPORTGYM_CORPORA or --corpora DIR to use it; --real-part none silences this note)")
        cfg = cfg.model_copy(update={"real_parts": []})
    progress = Console(stderr=True)  # stdout holds the JSON alone

    def log(text: str) -> None:
        progress.print(f"[dim]{text}[/]")

    if cv:
        if not cfg.real_parts:
            raise ConfigError("--cv cross-validates inside the real parts: it needs real mail (drop --real-part none; "
                              "where no corpora folder is found, name one with --corpora DIR)")
        console.print_json(json.dumps(cross_validate_real(cfg, trash_biases=sweep_trash, log=log)))
        return
    check_output_file(cfg.out, example="inbox_classifier.npz")  # before minutes of training, not at the save
    summary = train_classifier(cfg, log=log)
    summary.pop("tried", None)
    console.print_json(json.dumps(summary, default=str))
    console.print(f"use it with: supportgym eval --env inbox --agent classifier --checkpoint {shown(summary['checkpoint'])}")


def _option_error(e: Any, options: dict[str, str]) -> str:
    field = str(e["loc"][0]) if e["loc"] else ""
    opt = options.get(field, "--" + field.replace("_", "-"))
    msg = str(e["msg"]).removeprefix("Value error, ")
    return f"{opt}: {msg} (got {e['input']!r})"


def _corpora_found(root: str | None) -> bool:
    from ..core.errors import DataUnavailableError
    from ..envs.inbox.real import corpora_root

    try:
        corpora_root(root)
    except DataUnavailableError:
        return False  # nothing named and nothing found; a folder named but missing stays an error
    return True
