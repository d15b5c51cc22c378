"""An option that takes a whole number within a range (Tresillo's enchilada, 0 or 25 to 100): the catalog gives
the range, the API takes a number inside it and refuses one outside, and the variant page offers a number field."""
from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from ombre_rules.web.app import create_app  # noqa: E402

from .conftest import shot  # noqa: E402

REFUSED = "'101' is not a choice of option 'enchilada' (choices: 0, or a whole number from 25 to 100)"


def test_the_catalog_gives_the_range_and_the_api_checks_it(tmp_path):
    with TestClient(create_app(str(tmp_path / "data"), None, processes=False)) as c:
        vs = {v["key"]: v for v in c.get("/api/variants").json()}
        opt = {o["key"]: o for o in vs["tresillo"]["options"]}["enchilada"]
        assert (opt["default"], opt["choices"], opt["range"]) == ("0", ["0"], {"min": 25, "max": 100})
        assert "range" not in {o["key"]: o for o in vs["tresillo"]["options"]}["favour_suit"]
        r = c.get("/api/variants/tresillo", params={"enchilada": "40"})
        assert r.status_code == 200 and r.json()["variant"] == "tresillo(enchilada=40)"
        r = c.get("/api/variants/tresillo", params={"enchilada": "101"})
        assert r.status_code == 400 and r.json()["error"].endswith(REFUSED)


@pytest.mark.parametrize("width,height,name", [(1280, 900, "desktop"), (390, 844, "phone")])
def test_the_variant_page_takes_a_number_in_the_range(browser, server, width, height, name):
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/variant/tresillo")
    page.wait_for_selector("#opt-enchilada", state="attached")
    if page.get_attribute("#options-box", "open") is None:  # a phone folds the options away
        page.click("#options-box summary")
    page.wait_for_selector("#opt-enchilada")
    options = page.eval_on_selector_all("#opt-enchilada option", "os => os.map(o => [o.value, o.textContent])")
    assert options == [["0", "0 (default)"], ["", "a number from 25 to 100"]]
    assert page.is_hidden("#opt-enchilada-number")
    page.select_option("#opt-enchilada", "")
    assert page.is_visible("#opt-enchilada-number")
    assert page.input_value("#opt-enchilada-number") == "25"
    page.wait_for_function("() => document.querySelector('#canonical').textContent === 'tresillo(enchilada=25)'")
    page.fill("#opt-enchilada-number", "40")
    page.dispatch_event("#opt-enchilada-number", "change")
    page.wait_for_function("() => document.querySelector('#canonical').textContent === 'tresillo(enchilada=40)'")
    shot(page, f"option-range-{name}", full=False)
    page.fill("#opt-enchilada-number", "101")
    page.dispatch_event("#opt-enchilada-number", "change")
    page.wait_for_selector("#option-errors pre.errors")
    assert page.inner_text("#option-errors pre.errors").endswith(REFUSED)
    assert page.text_content("#canonical") == "tresillo(enchilada=40)"
    page.select_option("#opt-enchilada", "0")
    assert page.is_hidden("#opt-enchilada-number")
    page.wait_for_function("() => document.querySelector('#canonical').textContent === 'tresillo'")
    assert errors == []
    ctx.close()
