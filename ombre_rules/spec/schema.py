"""The JSON Schema check of a variant document, with errors that name their file position."""
from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import jsonschema

from ..errors import OmbreError, SpecError, SpecErrors, did_you_mean, quoted
from ..resources import schema_path
from .yamlpos import PositionedDoc


@lru_cache(maxsize=2)
def validator(path: str | None = None) -> jsonschema.protocols.Validator:
    """The validator of a schema file (by default that of variant files)."""
    with open(path or schema_path(), encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _where(path) -> str:
    return ".".join(str(p) for p in path) or "the file"


def describe(err: jsonschema.ValidationError) -> tuple[str, tuple]:
    """A schema violation in words, and the path it names."""
    path = tuple(err.absolute_path)
    kind = err.validator
    inst = err.instance
    if kind == "additionalProperties" and isinstance(inst, dict) and isinstance(err.schema, Mapping):
        allowed = list(err.schema.get("properties", {}))
        extra = [k for k in inst if k not in allowed]
        if extra:
            k = extra[0]
            hint = did_you_mean(k, allowed) or (f" (expected one of: {', '.join(allowed)})" if allowed else "")
            return f"unknown key '{k}' in {_where(path)}{hint}", path + (k,)
    if "propertyNames" in err.schema_path:  # a key that is not a plain name
        return (f"{quoted(inst)} is not a valid name in {_where(path)} (letters, digits and '_', starting with a "
                f"letter, at most 63 characters)", path + (inst,))
    if kind == "required":
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        return f"missing key '{missing}' in {_where(path)}", path + (missing,)
    if kind == "enum" and isinstance(err.validator_value, list):
        choices = [str(c) for c in err.validator_value]
        hint = did_you_mean(inst, choices) or f" (expected one of: {', '.join(choices)})"
        return f"'{inst}' is not allowed for {_where(path)}{hint}", path
    if kind == "type":
        want = err.validator_value
        want = " or ".join(want) if isinstance(want, list) else want
        return f"{_where(path)} must be {want}, not {json.dumps(inst)[:40]}", path
    if kind in ("oneOf", "anyOf"):
        return _alternatives(err, path)
    if kind == "const":
        return f"{_where(path)} must be {json.dumps(err.validator_value)}, not {json.dumps(inst)[:40]}", path
    if kind in ("maxLength", "maxItems", "maxProperties"):
        return f"{_where(path)} is longer than {err.validator_value}", path
    msg = err.message.replace("\n", " ")
    msg = msg if len(msg) <= 160 else msg[:157] + "..."
    return f"{_where(path)}: {msg[:1].lower() + msg[1:]}", path


def _alternatives(err: jsonschema.ValidationError, path: tuple) -> tuple[str, tuple]:
    """A value that fits none of the alternatives: when each alternative names its type, the types wanted (none
    of them fits), or what is wrong within the one alternative of the value's type."""
    inst: Any = err.instance
    alts = err.validator_value if isinstance(err.validator_value, list) else []
    types = [a["type"] for a in alts if isinstance(a, Mapping) and isinstance(a.get("type"), str)]
    if alts and len(types) == len(alts):
        fitting = [i for i, t in enumerate(types) if validator().is_type(inst, t)]
        if not fitting:
            return f"{_where(path)} must be {' or '.join(types)}, not {json.dumps(inst)[:40]}", path
        inner = [e for e in err.context or () if len(fitting) == 1 and e.relative_schema_path[0] == fitting[0]]
        if inner:
            return describe(inner[0])
    return f"{_where(path)}: {json.dumps(inst)[:60]} is not a valid value here", path


def check(doc: PositionedDoc, unknown: list[OmbreError] | None = None) -> None:
    """Raise SpecErrors listing every schema violation, each at its position.

    With `unknown` (a list, as `ombre check` passes), keys the schema does not know are taken out of the
    document and their errors added to the list, so that the rest of the file can still be checked; any other
    violation raises as before."""
    errors = sorted(validator().iter_errors(doc.data), key=lambda e: [str(p) for p in e.absolute_path])
    while unknown is not None and errors and all(e.validator == "additionalProperties" for e in errors):
        for err in errors:
            msg, path = describe(err)
            unknown.append(SpecError(msg, doc.key_loc(path)))
            node = doc.data
            for k in path[:-1]:
                node = node[k]
            node.pop(path[-1], None)
        errors = sorted(validator().iter_errors(doc.data), key=lambda e: [str(p) for p in e.absolute_path])
    if not errors:
        return
    out: list[OmbreError] = list(unknown or [])
    seen = {str(e.message) for e in out}
    for err in errors:
        msg, path = describe(err)
        if msg in seen:
            continue
        seen.add(msg)
        by_key = err.validator in ("additionalProperties", "required") or "propertyNames" in err.schema_path
        loc = doc.key_loc(path) if by_key else doc.loc(path)
        out.append(SpecError(msg, loc))
    raise SpecErrors(out)
