"""Every recorded request's decode and encode outcomes, as digests, to compare two builds (not a test).

Nothing a speed change does may show on the wire. This script takes every request body of the
real, lingua and pydantic-ai corpora, decodes it with each of the six codecs (a refusal is an
outcome too: the DecodeError's codec, path and reason), and encodes each request that decodes as
each of the six wires, strict and not, with both reasoning policies. Each outcome is the decoded
IR with its set fields and number types (``exact_dump``), or the encoded body as JSON text (key
order counts) with its warnings, or the error's type and message; it is kept as a digest under
its name. Run it under each build and compare the files::

    python bench/corpus_outcomes.py --write /tmp/before.json        # on the base
    python bench/corpus_outcomes.py --write /tmp/after.json         # on the change
    python bench/corpus_outcomes.py --compare /tmp/before.json /tmp/after.json

``--compare`` prints the count and every name whose outcome differs (exit status 1 if any).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

WIRES = ("anthropic-messages", "openai-chat", "openai-responses", "gemini", "bedrock-converse", "cohere-chat")
MODEL_FROM_OUTSIDE = ("gemini", "bedrock-converse")  # their bodies name no model: the URL does
STRICT = (False, True)
REASONING = ("drop", "as_text")


def bodies() -> Iterator[tuple[str, Any, str | None, str | None]]:
    """(name, body, dialect, model) for every request of the three corpora; dialect (``wire:dialect``,
    the dialect of the recorded wire's codec) and model where the pydantic-ai corpus records them."""
    from interlingua.testing import lingua_fixtures_dir, load_body, pydantic_ai_fixtures_dir, real_fixtures_dir

    real = real_fixtures_dir()
    for path in sorted(real.glob("*/request/*.json")):
        if not path.name.endswith(".ir.json"):
            yield f"real/{path.relative_to(real)}", load_body(path), None, None
    lingua = lingua_fixtures_dir()
    for path in sorted(lingua.glob("*/*/*request.json")):
        yield f"lingua/{path.relative_to(lingua)}", load_body(path), None, None
    pydantic_ai = pydantic_ai_fixtures_dir()
    for meta_file in sorted(pydantic_ai.glob("*/*/meta.json")):
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
        body = load_body(meta_file.parent / "request.json")
        dialect = meta.get("dialect")
        name = f"pydantic-ai/{meta_file.parent.relative_to(pydantic_ai)}"
        yield name, body, f"{meta_file.parent.parent.name}:{dialect}" if dialect else None, meta.get("model")


def _digest(value: Any) -> str:
    return hashlib.sha256(repr(value).encode("utf-8", "surrogatepass")).hexdigest()[:24]


def outcomes() -> dict[str, str]:
    """Every outcome's digest, by name: ``SOURCE | decoder`` and ``SOURCE | decoder -> wire strict reasoning``."""
    import interlingua as il
    from interlingua.testing._fast_paths import decode_outcome, encode_outcome, exact_dump

    codecs = {wire: il.get_codec(wire) for wire in WIRES}
    found: dict[str, str] = {}
    for name, body, dialect, model in bodies():
        for wire in WIRES:
            own = dialect is not None and dialect.startswith(f"{wire}:")
            codec = il.get_codec(wire, dialect=dialect.partition(":")[2]) if own and dialect else codecs[wire]
            extra = {"model": model or "m"} if wire in MODEL_FROM_OUTSIDE else {}
            key = f"{name} | {wire}"
            try:
                decoded = decode_outcome(lambda c=codec, b=body, e=extra: c.decode_request(b, **e))
            except Exception as error:  # a decoder that refuses outside DecodeError: an outcome too
                decoded = (type(error).__name__, str(error))
            if not isinstance(decoded, il.Request):
                found[key] = _digest(decoded)
                continue
            found[key] = _digest(exact_dump(decoded))
            for target in WIRES:
                for strict in STRICT:
                    for reasoning in REASONING:
                        outcome = encode_outcome(
                            lambda t=target, s=strict, r=reasoning, q=decoded: codecs[t].encode_request(
                                q, strict=s, reasoning=r
                            )
                        )
                        found[f"{key} -> {target} {strict} {reasoning}"] = _digest(outcome)
    return found


def compare(before_file: str, after_file: str) -> int:
    before = json.loads(Path(before_file).read_text(encoding="utf-8"))
    after = json.loads(Path(after_file).read_text(encoding="utf-8"))
    differ = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    encodes = sum(" -> " in k for k in before)
    print(f"{len(before)} outcomes before ({encodes} encodes), {len(after)} after; {len(differ)} differ")
    for name in differ[:50]:
        print("  ", name)
    return 1 if differ else 0


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["--compare"] and len(args) == 3:
        raise SystemExit(compare(args[1], args[2]))
    if args[:1] == ["--write"] and len(args) == 2:
        found = outcomes()
        Path(args[1]).write_text(json.dumps(found, indent=0, sort_keys=True), encoding="utf-8")
        print(f"{len(found)} outcomes written to {args[1]}")
        return
    raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
