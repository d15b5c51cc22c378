"""`ombre diff`: what two rule sets do differently, in a player's words — the rulebooks item by item, the
payments case by case, the cards that must be played, the same seeded deals played by the same bots — and, for
two choices of an option that change nothing, why."""
from __future__ import annotations

import json
import re

import pytest
from test_rulebook import ARTEFACTS, artefacts
from variant_choices import every_choice, rules_of

from ombre_rules import load
from ombre_rules.book import diff, diff_html, diff_md
from ombre_rules.book.diff import diff_rules
from ombre_rules.spec.resolve import fmt_value


def _changes(d, title):
    return d.sections.get(title, [])


def test_tie_above_ombre_shows_in_the_payments_of_1_4_4():
    d = diff(load("ombre"), load("ombre(tie_above_ombre=codille_shared)"))
    assert [(c.kind, c.name, c.old) for c in _changes(d, "Outcomes")] == [
        ("removed", "The outcomes, Puesta", "when: Both defenders took more tricks than the Ombre, as many each "
                                            "(1, 4 and 4)")]
    [entrada] = [c for c in _changes(d, "Payments, case by case") if c.name.startswith("Entrada")]
    assert entrada.name == "Entrada: tricks 1 · 4 · 4"
    assert entrada.old == "Puesta: Ombre −10 − P, Defender A +5, Defender B +5; the pool after: 2P"
    assert entrada.new == "Codille: Ombre −10 − P, Defender A +5 + P/2, Defender B +5 + P/2; the pool after: P"


def test_a_change_inside_the_bidding_shows_in_words_and_in_play():
    d = diff(load("german-solo"), load("german-solo(compulsory_bids=false)"))
    removed = [c.old for c in _changes(d, "The bidding")]
    assert all(c.kind == "removed" for c in _changes(d, "The bidding")) and len(removed) == 2
    assert removed[1].startswith("Solo is compulsory: a player may not pass")
    deals = _changes(d, "The same deals, played by the same players")
    assert deals and deals[0].old.startswith("action ") and "bids Großfrage" in deals[0].old
    assert "passes" in deals[0].new


def test_the_session_close_shows_in_the_diff():
    d = diff(load("preference"), load("preference(pot_session_end=carry)"))
    assert [(c.kind, c.old) for c in _changes(d, "The pot and the session")] == [
        ("removed", "When the session ends — split: The pot is shared equally among everyone at the table; what "
                    "cannot be shared stays for the next session.")]


def test_an_inert_option_says_why():
    d = diff(load("ombre"), load("ombre(fish=12)"))
    assert d.empty and d.note == (
        "Setting fish to 12 instead of 10 changes nothing here: it acts only when scoring_model is pool_and_beasts "
        "(here it is pool_plus_per_opponent). It stands for: counters in one fish, the stake each player lays down "
        "in the Court Gamester's scoring (pool and beasts).")
    assert diff_md(load("ombre"), load("ombre(fish=12)")).endswith(d.note + "\n")
    same = diff(load("ombre"), load("ombre(all_pass=redeal)"))
    assert same.empty and same.note == "The two rule sets deal, play and pay alike."


def test_quadrille_to_tredrille_says_the_ombre_plays_alone():
    d = diff(load("quadrille"), load("tredrille"))
    call = next(c for c in _changes(d, "Ask leave (call a king)") if (c.new or "").startswith("The Ombre demands"))
    assert call.new == ("The Ombre demands a king he does not hold. Its holder hands it over, openly, and gets a "
                        "card of the Ombre's choice in return; the Ombre then plays alone.")
    assert [c.new for c in _changes(d, "Players and roles")][0] == ("3 players sit at the table, and all of them "
                                                                      "play each deal.")


def test_ombre_to_danish_says_pool_stake_estuches_and_primeras_are_gone():
    d = diff(load("ombre"), load("danish-lhombre"))
    gone = " ".join(c.old for c in _changes(d, "Payments") + _changes(d, "The pool and the session")
                    + _changes(d, "Play") if c.old)
    for word in ("pool", "puts 5 into the pool", "estuches", "primeras"):
        assert word in gone, word
    assert [c.old for c in _changes(d, "The pool and the session")] == [
        "The pool starts the session with 0 counters and is carried from deal to deal."]


def test_diff_formats():
    a, b = load("ombre"), load("ombre(tie_above_ombre=codille_shared)")
    md = diff_md(a, b)
    assert md.startswith("# `ombre` → `ombre(tie_above_ombre=codille_shared)`\n") and "## Payments, case by case" in md
    page = diff_html(a, b)
    assert page.startswith("<!DOCTYPE html>") and '<span class="old">' in page
    frag = diff_html(a, load("ombre(fish=12)"), fragment=True)
    assert frag.startswith('<div class="ombre-book">') and "acts only when scoring_model is" in frag


def test_cli_diff_json(capsys):
    from ombre_rules.cli import main

    assert main(["diff", "ombre", "ombre(fish=12)", "--format", "json", "--out", "-"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["a"] == "ombre" and out["sections"] == [] and out["note"].startswith("Setting fish to 12")
    assert main(["rules", "nosuch"]) == 1


CHOICES = [(p, sel) for p, sel in every_choice() if sel]


@pytest.mark.parametrize("i", range(len(CHOICES)), ids=lambda i: "{}({}={})".format(
    CHOICES[i][0].rsplit("/", 1)[-1][:-5], CHOICES[i][1][0][0], fmt_value(CHOICES[i][1][0][1])))
def test_every_option_choice_has_a_diff_in_words_or_says_why_not(i):
    """Every choice of every option of every built-in variant differs from the default in something a player
    sees (its rulebook, its payments, the cards he must play, or the same deals played by the same bots), or its
    diff says why it does not act; the diff's words carry no artefact either."""
    path, sel = CHOICES[i]
    d = diff_rules(rules_of(path, ()), rules_of(path, sel), deals=4, first=True)
    if d.empty:
        key = sel[0][0]
        why = ("acts only when", "the rules read it, but", "no rule reads it", "its choice changes the file, but")
        assert d.note.startswith(f"Setting {key} to ") and any(w in d.note for w in why), d.note
        return
    # the file's own expressions may stand beside the words, marked as such (`…`)
    words = [(t, re.sub(r"`[^`]*`", "", w)) for t, cs in d.sections.items() for c in cs
             for w in (c.name, c.old or "", c.new or "")]
    assert artefacts([(t, w) for t, w in words if t not in ("The cards a player must play",)]) == [], ARTEFACTS
