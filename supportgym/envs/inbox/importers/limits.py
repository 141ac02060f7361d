"""Size bounds applied before any text reaches a parser, an agent or the environment.

Real mail never comes near them (the SpamAssassin corpus: longest header field 1.3 KB, whole
header block 4.5 KB, largest body 195 KB raw); hostile or broken input does. The standard
library's header parser is super-linear on long RFC 2047 and folded headers (a 1 MB subject
does not finish), and the rules agent spends ~7-13 s per MB of body, so bounds are applied
first and every cut is recorded in ``LabelledEmail.meta["truncated"]``: never silent.
"""

from __future__ import annotations

import re

#: one header field (name, value and its folded continuation lines), in bytes; longer is cut
MAX_HEADER_FIELD_BYTES = 16 * 1024
#: the whole header block of one message, in bytes; fields beyond it are dropped
MAX_HEADER_BLOCK_BYTES = 256 * 1024
#: decoded bytes of one MIME part that are turned into text (HTML conversion included)
MAX_PART_BYTES = 4 * 1024 * 1024
#: characters of an email body the environment keeps (~8,000 words)
MAX_BODY_CHARS = 50_000
#: characters of a subject or sender (RFC 5322 caps a line at 998)
MAX_HEADER_CHARS = 998
#: attachment names kept per email, and characters per name: an email travels in every observation of its episode,
#: and a 2.3 MB message of 50,000 parts made one email of 1.1 MB of names (a red team of 5 Dec)
MAX_ATTACHMENTS = 100
MAX_ATTACHMENT_NAME_CHARS = 255

_BLANK_LINE = re.compile(rb"\r?\n\r?\n")


def cut(text: str, limit: int) -> tuple[str, str | None]:
    """``text`` bounded to ``limit`` characters, and a note when it was cut."""
    if len(text) <= limit:
        return text, None
    return text[:limit], f"{len(text)}->{limit} chars"


def bound_headers(data: bytes) -> tuple[bytes, list[str]]:
    """Raw message bytes with each header field and the header block bounded; notes on every cut.

    Fields are cut at the last space before the limit, so an RFC 2047 word is rarely split
    (a split one is shown undecoded, never an error).
    """
    end = _BLANK_LINE.search(data, 0, MAX_HEADER_BLOCK_BYTES + MAX_HEADER_FIELD_BYTES + 4)
    head_end = end.start() if end else len(data)
    head, rest = data[:head_end], data[head_end:]  # no blank line within bounds: all header, no body
    if len(head) <= MAX_HEADER_FIELD_BYTES:
        return data, []
    notes: list[str] = []
    fields: list[list[bytes]] = []  # each field's lines, without copying a long one twice
    for line in head.splitlines(keepends=True):
        if fields and line[:1] in (b" ", b"\t"):
            fields[-1].append(line)
        else:
            fields.append([line])
    kept: list[bytes] = []
    total = 0
    for i, lines in enumerate(fields):
        size = sum(map(len, lines))
        if size > MAX_HEADER_FIELD_BYTES:
            name = lines[0].split(b":", 1)[0][:40].decode("ascii", "replace").strip().lower()
            taken, room = [], MAX_HEADER_FIELD_BYTES
            for k, line in enumerate(lines):
                if len(line) > room:
                    # a space inside the value: the one after "Subject:" left a one-word subject empty (red team of 7 Dec)
                    start = line.find(b":") + 2 if k == 0 else 1
                    space = line.rfind(b" ", start, room)
                    taken.append(line[: space if space >= start else room].rstrip() + b"\n")
                    break
                taken.append(line)
                room -= len(line)
            lines, size = taken, sum(map(len, taken))
            notes.append(f"header {name}: cut to {MAX_HEADER_FIELD_BYTES} bytes")
        if total + size > MAX_HEADER_BLOCK_BYTES:
            notes.append(f"headers: {len(fields) - i} field(s) after {MAX_HEADER_BLOCK_BYTES} bytes dropped")
            break
        kept += lines
        total += size
    return b"".join(kept).rstrip(b"\r\n") + rest, notes
