"""Rulebooks made once per ruleset and kept (issue 33, item 14): in memory, on disk across a restart, under a key
that changes with the code, the file (its title and sources too) and the options; the built-in variants' made
at start; two requests for one page make it once."""
from __future__ import annotations

import os
import time
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from ombre_rules import load  # noqa: E402
from ombre_rules.book import rulebook_html  # noqa: E402
from ombre_rules.web import books  # noqa: E402
from ombre_rules.web.app import create_app  # noqa: E402


def test_a_rulebook_is_made_once_and_kept_across_a_restart(tmp_path, monkeypatch):
    made = []
    real = books.render

    def counting(kind, sources):
        made.append((kind, sources))
        return real(kind, sources)

    monkeypatch.setattr(books, "render", counting)
    data = str(tmp_path / "data")
    with TestClient(create_app(data, processes=False)) as c:
        first = c.get("/api/variants/ombre-a-dos/rulebook")
        again = c.get("/api/variants/ombre-a-dos/rulebook")
        other = c.get("/api/variants/ombre-a-dos/rulebook", params={"vole": "false"})
    assert first.status_code == again.status_code == other.status_code == 200
    assert first.text == again.text == rulebook_html(load("ombre-a-dos"))
    assert other.text == rulebook_html(load("ombre-a-dos(vole=false)")) != first.text
    assert made == [("book", [("ombre-a-dos", ())]), ("book", [("ombre-a-dos", (("vole", "false"),))])]
    assert len(os.listdir(os.path.join(data, "rulebooks"))) == 2
    with TestClient(create_app(data, processes=False)) as c:
        assert c.get("/api/variants/ombre-a-dos/rulebook").text == first.text
    assert len(made) == 2  # read from the disk after the restart


def test_the_key_names_the_code_the_file_and_the_options():
    a, b = load("ombre"), load("ombre(all_pass=contrabola)")
    assert books.page_key("book", a) == books.page_key("book", load("ombre"))
    assert books.page_key("book", a) != books.page_key("book", b)
    assert books.page_key("book", a) != books.page_key("diff", a, a)
    assert len(books.code_version()) == 16


def test_the_built_in_rulebooks_are_made_at_start(tmp_path, monkeypatch):
    made = []

    def fake(kind, sources):
        made.append(sources[0][0])
        return True, f"<html>{sources[0][0]}</html>"

    monkeypatch.setattr(books, "render", fake)
    with TestClient(create_app(str(tmp_path / "data"), processes=False, warm=True)) as c:
        ids = [v["key"] for v in c.get("/api/variants").json()]
        end = time.time() + 30
        while len(made) < len(ids) and time.time() < end:
            time.sleep(0.05)
        assert sorted(made) == sorted(ids)
        for key in ids:
            assert c.get(f"/api/variants/{key}/rulebook").text == f"<html>{key}</html>"
    assert sorted(made) == sorted(ids)  # each made once


def test_a_rulebook_that_cannot_be_made_is_a_page_that_says_why(tmp_path, monkeypatch):
    monkeypatch.setattr(books, "render", lambda kind, sources: (False, "cite: something went wrong"))
    with TestClient(create_app(str(tmp_path / "data"), processes=False)) as c:
        r = c.get("/api/variants/ombre/rulebook")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "<h1>Rules of ombre.yaml</h1>" in r.text and "cite: something went wrong" in r.text
