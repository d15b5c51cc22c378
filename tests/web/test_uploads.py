"""Uploads (issue 33, bug 5 and items 7-8): a file is kept only when everything the server does with it works
(every option choice compiled, its rulebook, its diff, deals played), checked in a process of its own whose
computing time and memory are limited; it must extend a built-in variant; and a kept file that fails later is
listed with its errors, never taking a page down."""
from __future__ import annotations

import os
import re
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from ombre_rules.cli import main as cli_main  # noqa: E402
from ombre_rules.web import vet  # noqa: E402
from ombre_rules.web.app import create_app  # noqa: E402
from ombre_rules.web.catalog import Catalog  # noqa: E402

from .test_api import new_table, upload  # noqa: E402

# a house rule that replaces the sources of the game it extends (its `cite:` tags then name none of them)
OWN_SOURCES = "id: mine\nextends: ombre\nsources: [{tag: HOUSE, cite: our house rules}]\ntitle: Our Ombre\n"
STANDALONE = "id: alone\nplayers: 3\n"


def growing(depth: int = 40) -> str:
    """A house rule whose amount squares itself `depth` times: it compiles for hours with today's loader (and
    would grow without bound if it ran)."""
    lets = "".join(f"    a{k}: 'a{k - 1} * a{k - 1}'\n" for k in range(1, depth + 1))
    return (f"id: grow\nextends: ombre\nscoring:\n  let:\n    a0: 'contract.value + 2'\n{lets}"
            f"    V: 'contract.value + a{depth} % 2'\n")


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(str(tmp_path / "data"), processes=False)) as c:
        yield c


def kept(c) -> list[str]:
    return [v["file"] for v in c.get("/api/variants").json() if v["origin"] == "upload"]


def test_a_house_rule_with_its_own_sources_is_kept_with_a_working_rulebook(client, tmp_path, capsys):
    r = upload(client, "mine.yaml", OWN_SOURCES.encode())
    assert r.status_code == 201, r.text
    key = r.json()["key"]
    book = client.get(f"/api/variants/{key}/rulebook")
    assert book.status_code == 200 and "<h1>Our Ombre</h1>" in book.text and "our house rules" in book.text
    diff = client.get(f"/api/variants/{key}/diff", params={"against": "ombre"})
    assert diff.status_code == 200 and "<h1>" in diff.text
    # the rulebook made by the check is kept: the first view reads it
    assert len(os.listdir(tmp_path / "data" / "rulebooks")) >= 1
    path = tmp_path / "mine.yaml"
    path.write_text(OWN_SOURCES, encoding="utf-8")
    assert cli_main(["rules", str(path)]) == 0
    assert capsys.readouterr().out.startswith("# Our Ombre\n")


def test_an_upload_must_extend_a_built_in_variant(client):
    r = upload(client, "alone.yaml", STANDALONE.encode())
    assert r.status_code == 400
    builtins = ", ".join(sorted(p.stem for p in (Path(__file__).parents[2] / "variants").glob("*.yaml")))
    assert r.json()["error"] == ("alone.yaml:1:1: an uploaded file must extend a built-in variant "
                                 f"(`extends: ID`, ID one of {builtins}) and give what it changes")
    assert kept(client) == []


def test_a_file_that_compiles_for_hours_is_refused_and_never_kept(client, tmp_path):
    r = upload(client, "grow.yaml", growing().encode())
    assert r.status_code == 400
    error = r.json()["error"]
    assert error.startswith("grow.yaml:") and str(tmp_path) not in error, error
    assert kept(client) == [] and os.listdir(tmp_path / "data" / "uploads") == []


def test_each_step_of_the_check_has_its_computing_time(client, monkeypatch):
    """With no computing time for a compilation, one of the compilations (the default options' or one option
    choice's: the server looks between its messages, and a compilation may end before it looks) is refused."""
    monkeypatch.setitem(vet.STEP_CPU, "compile", 0.0)
    r = upload(client, "house.yaml", b"id: house\nextends: ombre\ntitle: A house Ombre\n")
    assert r.status_code == 400
    assert re.fullmatch(r"house\.yaml: compiling it with (its default options|[a-z0-9_-]+=[a-z0-9_-]+) takes too long "
                        r"\(more than 0 s of computing, the most a server gives it\): refused", r.json()["error"])
    assert kept(client) == []


def test_too_many_option_choices_are_refused_before_they_are_compiled(client):
    choices = ", ".join(str(k) for k in range(vet.MAX_RUNS + 1))  # MAX_RUNS besides the default
    text = f"id: many\nextends: ombre\noptions:\n  pick: {{default: 0, choices: [{choices}]}}\n"
    r = upload(client, "many.yaml", text.encode())
    # the loader's own limit (issue 32), at the option's place, before anything is compiled
    assert (r.status_code, r.json()["error"]) == (400, f"many.yaml:4:31: option 'pick' has {vet.MAX_RUNS + 1} "
                                                       f"choices, more than 32: check compiles the file once for each")


def test_a_kept_upload_that_fails_later_takes_no_page_down(client, tmp_path, monkeypatch):
    r = upload(client, "house.yaml", b"id: house\nextends: ombre\ntitle: A house Ombre\n")
    assert r.status_code == 201, r.text
    good = r.json()
    t = new_table(client, variant=good["key"], seed=2)
    # the file changes under the server (an update of the server, a disk edited): it no longer loads
    store = client.app.state.tables.store
    (_uid, _name, path), = store.uploads()
    with open(path, "w", encoding="utf-8") as f:
        f.write("id: house\nextends: ombre\ncontracts:\n  solo: {value: 20, trump: sideways}\n")
    lobby = client.get("/api/variants")
    assert lobby.status_code == 200
    entry = next(v for v in lobby.json() if v["key"] == good["key"])
    assert entry["errors"][0].startswith("house.yaml:4:") and "sideways" in entry["errors"][0]
    r = client.get(f"/api/variants/{good['key']}")
    assert r.status_code == 200 and r.json()["errors"] == entry["errors"]
    r = client.get(f"/api/variants/{good['key']}/rulebook")
    assert r.status_code == 200 and "<h1>Rules of house.yaml</h1>" in r.text and "sideways" in r.text
    r = client.post("/api/tables", json={"variant": good["key"], "seats": ["human", "greedy", "greedy"]})
    assert r.status_code == 400 and r.json()["error"].startswith("house.yaml:4:")
    # its table, put away, cannot come back: a 410 with the reason; the others are untouched
    client.app.state.tables.tables.clear()
    r = client.get(f"/api/tables/{t['id']}", params={"t": "x"})
    assert r.status_code == 410 and r.json()["error"].startswith(f"table '{t['id']}' cannot be restored: house.yaml:4:")
    assert client.get("/api/variants/ombre").status_code == 200
    # whatever breaks in listing one file, the lobby lists the others
    real = Catalog._summary

    def broken(self, e):
        if e.origin == "upload":
            raise RuntimeError("cannot happen")
        return real(self, e)

    monkeypatch.setattr(Catalog, "_summary", broken)
    from ombre_rules.web import catalog

    catalog._summary.cache_clear()
    lobby = client.get("/api/variants").json()
    assert next(v for v in lobby if v["key"] == good["key"])["errors"] == [
        "house.yaml: this file cannot be read by this server (RuntimeError)"]
    assert len(lobby) == len(list((Path(__file__).parents[2] / "variants").glob("*.yaml"))) + 1  # and the upload
