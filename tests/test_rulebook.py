"""The rulebooks: what they say of each built-in variant (rank tables, contracts, payments worked out from the
compiled settlement, worked deals by role), the errors a newcomer found in them (issue 35), and that no book
shows a Python value, an internal name or an expression in its prose."""
from __future__ import annotations

import os
import re

import pytest
from housefiles import VALID, house

from ombre_rules import State, load
from ombre_rules.book import diff, rulebook, rulebook_html, rulebook_md
from ombre_rules.book.build import build
from ombre_rules.book.cardwords import Cards
from ombre_rules.book.model import Rule, Table
from ombre_rules.book.probe import Probe, Situation
from ombre_rules.book.schedule import Amount, Builder
from ombre_rules.book.words import Words
from ombre_rules.spec.resolve import builtin_index

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILTINS = sorted({os.path.basename(p)[:-5] for p in builtin_index().values()})

# what no prose of a book may show: Python values, option syntax, internal names, raw expressions, seat numbers
ARTEFACTS = [r"\bNone\b", r"\bTrue\b", r"\bFalse\b", r"''", r"\[\]", r"\boption [a-z_]+\b", r"\bcontract\.[a-z]",
             r"\bopt\.", r"\bseat \d", r"unknown <|unknown function", r"\b[a-z]+_[a-z_]+\b", r"\bsession\.[a-z]",
             r"==|!=|>=|<=|//", r"\bd1\b|\bd2\b", r"\bof session\b"]
PROSE_FREE = {"appendix", "sources", "options"}  # the appendix shows expressions; options show the choices to type


def prose(book) -> list[tuple[str, str]]:
    """(section key, text) of every sentence, caption, header and cell a reader sees as prose."""
    out = []
    for s in book.sections:
        if s.key in PROSE_FREE:
            continue
        for item in s.items:
            if isinstance(item, Rule):
                out.append((s.key, item.text))
            else:
                out += [(s.key, t) for t in (item.caption, *item.header, *(c for r in item.rows for c in r))]
    return out


def artefacts(texts: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    return [(k, m.group(0), t) for k, t in texts for pat in ARTEFACTS if (m := re.search(pat, t))]


def text_of(book) -> str:
    return "\n".join(t for _k, t in prose(book))


def section(book, key):
    return next(s for s in book.sections if s.key == key)


@pytest.mark.parametrize("variant", BUILTINS)
def test_no_artefacts_in_a_builtin_book(variant):
    book = rulebook(load(variant))
    assert artefacts(prose(book)) == []
    assert book.sections[0].key == "idea" and book.sections[0].items[0].para
    for c in load(variant).contracts:  # every contract has a title of its own, not its id
        assert c.title != c.name and "_" not in c.title, c.name


# the rank orders of ../shared/rules/*.md § "Rank orders", high to low, in the book's card names
BLACK = "K Q J 7 6 5 4 3 2"
RED = "K Q J A 2 3 4 5 6 7"
TRUMPS = {"spades": "AS 2S AC KS QS JS 7S 6S 5S 4S 3S", "clubs": "AS 2C AC KC QC JC 7C 6C 5C 4C 3C",
          "hearts": "AS 7H AC AH KH QH JH 2H 3H 4H 5H 6H", "diamonds": "AS 7D AC AD KD QD JD 2D 3D 4D 5D 6D"}
LETTER = {"spades": "S", "clubs": "C", "hearts": "H", "diamonds": "D"}
SIGN = {"spades": "♠", "clubs": "♣", "hearts": "♥", "diamonds": "♦"}


def _shown(codes: str) -> str:
    return " ".join(c[:-1] + SIGN[next(s for s, x in LETTER.items() if x == c[-1])] for c in codes.split())


def _plain(suit: str, nolo: bool) -> str:
    ranks = (BLACK if LETTER[suit] in "SC" else RED).split()
    if nolo and LETTER[suit] in "SC":  # no trumps: the black ace back in its suit, lowest
        ranks.append("A")
    return _shown(" ".join(r + LETTER[suit] for r in ranks))


def _tables(variant: str) -> dict[str, dict[str, str]]:
    sec = section(build(load(variant), options=False, examples=False, payments=False), "ranks")
    return {t.caption: dict(t.rows) for t in sec.items if isinstance(t, Table)}


@pytest.mark.parametrize("variant,suits", [
    ("ombre", ["spades", "clubs", "hearts", "diamonds"]), ("quadrille", ["spades", "clubs", "hearts", "diamonds"]),
    ("cinquillo", ["spades", "clubs", "hearts", "diamonds"]),
    ("danish-lhombre", ["spades", "clubs", "hearts", "diamonds"]),
    ("ombre-a-dos", ["spades", "clubs", "hearts"]), ("tredrille", ["spades", "clubs", "hearts"])])
def test_rank_tables_follow_the_rules_and_are_shown_once(variant, suits):
    want = {"Suits that are not trumps": {f"{s} ({SIGN[s]})": _plain(s, False) for s in suits},
            "The trumps, by the trump suit": {f"{s} ({SIGN[s]})": _shown(TRUMPS[s]) for s in suits}}
    if variant == "danish-lhombre":
        want["Suits that are not trumps (nolo ranking)"] = {f"{s} ({SIGN[s]})": _plain(s, True) for s in suits}
    assert _tables(variant) == want


def test_rank_tables_of_taroc():
    romans = "XXI XX XIX XVIII XVII XVI XV XIV XIII XII XI X IX VIII VII VI V IV III II I".split()
    red = "K Q C J 1 2 3 4 5 6 7 8 9 10".split()
    black = "K Q C J 10 9 8 7 6 5 4 3 2 1".split()
    sign = {"hearts": "♥", "diamonds": "♦", "clubs": "♣", "spades": "♠"}
    # the Scus (the excuse) has no trick-winning rank; it is listed last and never wins
    assert _tables("taroc-lhombre") == {
        "Suits that are not trumps": {f"{s} ({g})": " ".join(r + g for r in (red if s in ("hearts", "diamonds")
                                                                            else black))
                                      for s, g in sign.items()},
        "The trumps, by the trump suit": {"tarocks": " ".join(romans + ["Scus"])}}


def test_payments_of_ombre_worked_out_from_the_settlement():
    rules = load("ombre")
    entrada = rules.contract_by_name["entrada"]
    [g] = Builder(rules, Words(rules)).contract(entrada)
    cases = {c.key: (c.outcome, [a.text() for a in c.amounts], c.pool) for c in g.cases}
    p = Amount(0, 1)
    assert cases["4 · 3 · 2"] == ("sacada", ["+10 + P", "−5", "−5"], Amount(0))
    assert cases["3 · 3 · 3"] == ("puesta", ["−10 − P", "+5", "+5"], Amount(0, 2))
    assert cases["1 · 4 · 4"] == ("puesta", ["−10 − P", "+5", "+5"], Amount(0, 2))
    assert cases["2 · 5 · 2"] == ("codille", ["−10 − P", "+5 + P", "+5"], p)
    assert cases["5 · 0 · 0 (stopped after winning the first 5)"] == ("sacada", ["+16 + P", "−8", "−8"], Amount(0))
    assert cases["9 · 0 · 0 (played on for every trick)"] == ("vole", ["+60 + P", "−30", "−30"], Amount(0))
    assert cases["5 · 2 · 2 (played on for every trick)"] == ("vole_failed", ["−60 + P", "+30", "+30"], Amount(0))
    labels, rows = g.dims["run"]
    assert labels == ["0", "1", "each further one"]
    assert dict(rows)["sacada"] == ["+10 + P", "+12 + P", "+2"]


def test_a_settlement_settles_a_made_up_end_as_the_engine_does():
    rules = load("ombre")
    probe = Probe.of(rules, rules.contract_by_name["solo"])
    d, (a, b) = probe.declarer, probe.defenders
    got = probe.settle(Situation((d,) * 4 + (a,) * 3 + (b,) * 2, pool=15, run=0))
    # a sacada: the Ombre takes the 15 of the pool and 15 (a solo's value, no estuches) from each defender
    assert (got.outcome, got.payments[d], got.payments[a], got.payments[b], got.pool) == ("sacada", 45, -15, -15, 0)


def test_preference_pays_by_contract_and_trump_in_a_scale():
    book = build(load("preference"), options=False, examples=False)
    tables = {t.key: t for t in section(book, "payments").items if isinstance(t, Table)}
    scale = {r[0]: r[1:] for r in tables["payments.scale"].rows}
    assert tables["payments.scale"].header == ("contract", "clubs", "spades", "diamonds", "hearts", "no trumps",
                                               "times the table of")
    assert scale["Eins"] == ("its table", "× 2", "× 3", "× 4", "—", "Eins")
    assert scale["Zwei"] == ("—", "× 2", "× 3", "× 4", "—", "Eins")
    assert scale["Hand"] == ("× 2", "× 4", "× 6", "× 8", "—", "Eins")
    assert scale["Sans"] == ("—", "—", "—", "—", "× 6", "Eins")
    eins = {r[1]: r for r in tables["payments.table.one, trumps clubs"].rows if not r[1].startswith("…")}
    # won 6 · 2 · 2: the declarer takes 10 from the pot, pays each defender 1 a trick
    assert eins["6 · 2 · 2"][2:] == ("+6", "+2", "+2", "P − 10")
    # lost 2 · 7 · 1: bête 10 into the pot, fees 7 and 1; the defender with 1 misses his quota of 2 and pays 10
    assert eins["2 · 7 · 1"][2:] == ("−18", "+7", "−9", "P + 20")


def test_taroc_payments_by_card_points():
    book = build(load("taroc-lhombre"), options=False, examples=False)
    t = next(t for t in section(book, "payments").items if isinstance(t, Table) and t.caption == "à Due")
    assert t.header == ("outcome", "tricks (Declarer · A · B)", "the declarer's card points", "Declarer",
                        "Each defender")
    rows = [r for r in t.rows if not r[1].startswith("…")]
    # 20 + 1 × (points − 39) from each opponent; 39 is remis
    for r in rows:
        pts = int(r[2])
        if r[0] == "Won":
            assert r[3:] == (f"+{2 * (20 + pts - 39)}", f"−{20 + pts - 39}")
        if r[0] == "Remis":
            assert pts == 39 and r[3:] == ("0", "0")


def test_worked_deals_name_roles_not_seats():
    book = rulebook(load("ombre"))
    ex = [i.text for i in section(book, "examples").items[1:]]
    assert re.search(r"\bseat\b", "\n".join(ex)) is None
    assert ex[0] == ("Entrada, sacada (seed 0): The Ombre (forehand) plays Entrada, trumps spades. Tricks: the Ombre "
                     "4, second hand 2 and the dealer 3. The account: the stake: the Ombre, second hand and the dealer "
                     "each put 5 into the pool; sacada: the Ombre takes 15 from the pool; sacada: second hand and the "
                     "dealer each pay the Ombre 6 (value 5 + estuches 1). In all: the Ombre +22, second hand −11 and "
                     "the dealer −11.")
    assert len(ex) == len(set(ex))  # one deal an outcome


# -- the errors issue 35 lists ------------------------------------------------------------------------------
def test_payment_steps_read_as_english():
    pref = text_of(build(load("preference"), options=False, examples=False, payments=False))
    assert "each of table" not in pref and "rounds of 10" not in pref
    assert ("Won — refill: If the pot holds less than the game's worth, every player at the table puts 10 into it, "
            "as often as needed.") in pref
    ombre = text_of(build(load("ombre"), options=False, examples=False, payments=False))
    assert "puts the pool into the pool" not in ombre
    assert "Puesta: The Ombre puts into the pool as much as it holds (doubling it)." in ombre
    # a labelled step keeps its outcome's name
    assert "Codille — the pool's worth: The Ombre pays the defender with the most tricks" in ombre
    cinq = text_of(build(load("cinquillo"), options=False, examples=False, payments=False))
    assert "first_beast" not in cinq and "else ." not in cinq


def test_quadrille_shows_no_value_column_and_a_short_call():
    book = build(load("quadrille"), options=False, examples=False, payments=False)
    ladder = next(t for t in section(book, "auction").items if isinstance(t, Table))
    assert ladder.header == ("contract", "how it arises", "trumps")
    call = next(i for i in section(book, "contract.ask").items if i.key.endswith(".call"))
    assert len(call.text.split()) < 60 and call.text.startswith("The Ombre calls a king he does not hold.")


def test_the_defenders_exchange_in_a_solo():
    solo = section(build(load("ombre"), options=False, examples=False, payments=False), "contract.solo")
    texts = [i.text for i in solo.items]
    assert "The Ombre may not exchange: he plays the cards he was dealt." in texts
    assert any(t.startswith("Then the defenders exchange in turn") for t in texts)


def test_taroc_deal_lay_away_and_demands():
    text = text_of(build(load("taroc-lhombre"), options=False, examples=False, payments=False))
    assert ("The dealer gives each player in the deal 25 cards, in packets of 5, 5, 5, 5 and 5, starting with "
            "forehand; the last 3 cards go to the dealer, who so holds 28.") in text
    assert "Before the bidding the dealer lays 3 cards away" in text
    assert "demands 2 cards he does not hold, one at a time: I, XXI or Scus or a K, Q, C or J of ♥, ♦, ♣ or ♠" in text


def test_german_solo_compulsory_bids_and_the_grossfrage_partner():
    book = build(load("german-solo"), options=False, examples=False, payments=False)
    auction = [i.text for i in section(book, "auction").items if isinstance(i, Rule)]
    assert ("Solo is compulsory: a player may not pass, nor bid or hold below it, as long as he may still bid it, "
            "when he holds Spadille and he holds Basta and he holds all of the aces.") in auction
    gross = [i.text for i in section(book, "contract.grossfrage").items]
    assert any("Its holder becomes the partner and names the trump suit, so he is known to all" in t for t in gross)
    assert not any("hidden partner" in t or "nobody is told" in t for t in gross)
    off = build(load("german-solo(compulsory_bids=false)"), options=False, examples=False, payments=False)
    assert not any("compulsory" in i.text for i in section(off, "auction").items if isinstance(i, Rule))


@pytest.mark.parametrize("variant,contract", [("ombre", "vuelta"), ("danish-lhombre", "tourne"),
                                              ("rocambor", "volteo")])
def test_the_turned_card_is_explained(variant, contract):
    sec = section(build(load(variant), options=False, examples=False, payments=False), f"contract.{contract}")
    assert any(i.text.startswith("The top card of the talon is turned face up for everyone to see; its suit is "
                                 "trumps.") for i in sec.items)


def test_contracts_that_cannot_occur_are_left_out():
    book = build(load("ombre"), options=False, examples=False, payments=False)
    assert "contract.spadille_forced" not in {s.key for s in book.sections}
    forced = build(load("ombre(all_pass=spadille_force)"), options=False, examples=False, payments=False)
    assert "contract.spadille_forced" in {s.key for s in forced.sections}
    redeal = text_of(build(load("quadrille(all_pass=redeal)"), options=False, examples=False, payments=False))
    assert "Forced Spadille" not in redeal and "holder of Spadille" not in redeal


def test_roi_rendu_demands_only_kings():
    rules = load("quadrille(roi_rendu=true)")
    for seed in range(30):
        st = State(rules, seed=seed)
        while st.phase_name not in ("call", "done"):
            acts = st.legal_actions()
            bid = [a for a in acts if rules.action_str(a) == "bid ask"]
            st.apply(bid[0] if bid else acts[0])
        if st.phase_name == "call":
            called = {rules.action_str(a).split()[1][:-1] for a in st.legal_actions()}
            assert called == {"K"}
            return
    pytest.fail("no deal reached a call")


def test_session_close_and_values_are_rendered():
    pref = section(build(load("preference"), options=False, examples=False, payments=False), "session")
    assert ("When the session ends — split: The pot is shared equally among everyone at the table; what cannot be "
            "shared stays for the next session.") in [i.text for i in pref.items]
    carry = section(build(load("preference(pot_session_end=carry)"), options=False, examples=False, payments=False),
                    "session")
    assert not any(i.text.startswith("When the session ends") for i in carry.items)


def test_tredrille_says_three_not_four():
    text = text_of(rulebook(load("tredrille"), examples=False)).lower()
    assert "all four" not in text and "four players" not in text and "other three" not in text


def test_an_option_folds_into_the_rules():
    book = build(load("ombre(tie_above_ombre=codille_shared)"), options=False, examples=False, payments=False)
    outs = next(t for t in section(book, "outcomes").items if isinstance(t, Table))
    assert [r[0] for r in outs.rows] == ["Vole", "Vole failed", "Sacada", "Puesta", "Codille"]


# -- what books look like ----------------------------------------------------------------------------------
def test_html_page_and_fragment():
    rules = load("ombre-a-dos")
    page = rulebook_html(rules, examples=False)
    assert page.startswith("<!DOCTYPE html>") and 'name="viewport"' in page and "<nav>" in page
    assert '<span class="red">A♥</span>' in page and '<span class="black">A♠</span>' in page
    assert '<p class="idea">Ombre for two' in page
    assert 'title="suit(card) == led_suit"' in page  # the file's expression behind a rule, on hover
    frag = rulebook_html(rules, fragment=True, examples=False)
    assert "<html" not in frag and frag.startswith('<div class="ombre-book">')
    assert "@media (max-width:40rem){.ombre-book{" in frag


def test_cards_in_words():
    cards = Cards(load("ombre").deck)
    assert cards.text("AS and 7D, not ASK") == "A♠ and 7♦, not ASK"
    assert cards.mask(sum(1 << c.id for c in load("ombre").deck.cards if c.rank == "K")) == "a K of ♠, ♣, ♥ or ♦"


@pytest.mark.parametrize("variant", ["ombre", "quadrille"])
def test_golden_rulebook(variant):
    """Regenerate with `PYTHONPATH=. python -m ombre_rules rules VARIANT --out tests/golden/VARIANT.md`."""
    with open(os.path.join(ROOT, "tests", "golden", f"{variant}.md"), encoding="utf-8") as f:
        assert rulebook_md(load(variant)) == f.read()


@pytest.mark.parametrize("i", range(len(VALID)))
def test_every_valid_house_file_renders_a_book_and_a_diff(tmp_path, i):
    """A file `ombre check` accepts renders its rulebook and its diff from its base without an exception (a
    house rule that replaces the sources keeps the base's citations of tags it no longer has: they are left
    out)."""
    base, text = VALID[i]
    rules = load(house(tmp_path, text))
    book = rulebook(rules, examples=False)
    assert book.sections[0].key == "idea"
    assert artefacts(prose(book)) == []
    d = diff(load(base), rules)
    assert not d.empty or d.note
