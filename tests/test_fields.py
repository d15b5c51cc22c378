"""The fields of a deal are declared once (`engine/fields.py`): State's slots are made from them, the stages add
none and write no other, `clone` copies every list among them, and mypy refuses a stage that reads a field that
does not exist."""
from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

import pytest

import ombre_rules.engine.state as state_module
from ombre_rules import State, load
from ombre_rules.engine.fields import Fields

ENGINE = Path(state_module.__file__).parent
STAGES = [base for base in State.__mro__[1:] if base not in (Fields, object)]


def test_slots_are_the_declared_fields() -> None:
    assert State.__slots__ == tuple(Fields.__annotations__)
    assert len(State.__slots__) == len(set(State.__slots__)) == 113
    assert State.__slots__[:4] == ("phase", "to_move", "lm", "nc")  # the play loop's fields first
    assert not hasattr(State(load("ombre"), seed=1), "__dict__")


def test_stages_add_no_field() -> None:
    assert len(STAGES) == 13
    for stage in STAGES:
        assert stage.__slots__ == (), stage
        assert "__annotations__" not in vars(stage) or not vars(stage)["__annotations__"], stage
        assert issubclass(stage, Fields)


def _assigned(tree: ast.AST) -> set[str]:
    """The attributes of `self` a module's code assigns (plainly, augmented, or in a tuple of targets)."""
    out = set()
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        while targets:
            t = targets.pop()
            if isinstance(t, ast.Tuple):
                targets += t.elts
            elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                out.add(t.attr)
    return out


def test_stages_write_only_declared_fields() -> None:
    """A field a stage writes (which mypy would take for a new attribute of the mixin) is one of Fields."""
    written: set[str] = set()
    for cls in STAGES + [State]:
        written |= _assigned(ast.parse(textwrap.dedent(inspect.getsource(cls))))
    assert written - set(Fields.__annotations__) == set()
    assert {"hands", "trick", "phase", "to_move", "contract", "res"} <= written


def test_list_fields_are_copied_by_clone() -> None:
    """Every field declared as a list is in `_LISTS` (`hl`, a list of lists, is copied one level deeper)."""
    lists = {name for name, t in Fields.__annotations__.items() if any(part.startswith("list[")
                                                                        for part in t.split(" | "))}
    assert lists - {"hl"} == state_module._LISTS
    s = State(load("ombre"), seed=3)
    c = s.clone()
    for name in lists:
        if getattr(s, name) is not None:
            assert getattr(c, name) is not getattr(s, name), name
    assert all(a is not b for a, b in zip(c.hl, s.hl, strict=True))


_TYPO = '''
from ombre_rules.engine.play import PlayStage


class Peek(PlayStage):
    __slots__ = ()

    def _held(self) -> int:
        return self.{field}[self.to_move].bit_count()
'''


def test_mypy_refuses_a_field_that_does_not_exist(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")
    args = ["--no-error-summary", "--cache-dir", str(tmp_path / "cache"), "--show-error-codes"]
    good = tmp_path / "good.py"
    good.write_text(_TYPO.format(field="hands"))
    out, err, status = api.run(args + [str(good)])
    assert (out, status) == ("", 0), out + err
    bad = tmp_path / "bad.py"
    bad.write_text(_TYPO.format(field="hand"))
    out, _err, status = api.run(args + [str(bad)])
    assert status == 1
    assert out.strip() == f'{bad}:9: error: "Peek" has no attribute "hand"  [attr-defined]'
