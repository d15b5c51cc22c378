"""The rituals before play (issue 37.10): the draw for seats (`session.seats`: the cards drawn from a seed, the seat
and the first forehand they give, the players placed there) and the cut (`deal.cut`: its point from a seed, the
cards it deals); both in the view, the log, the record and the rulebook, and a record whose draw or cut was altered
refused on replay."""
from __future__ import annotations

import pickle

import pytest

from ombre_rules.book import rulebook
from ombre_rules.engine import State
from ombre_rules.engine.deal import shuffled
from ombre_rules.engine.rituals import cut_point, draw_seats, seating
from ombre_rules.errors import OmbreError, SpecError, SpecErrors
from ombre_rules.log import format_deal
from ombre_rules.records import ReplayError, replay, to_record
from ombre_rules.ruleset import load
from ombre_rules.session import Session
from ombre_rules.tty import play_table

RITUALS = "tests/data/rituals.yaml"  # AS, AH, KS laid at seats 0, 1, 2; AH's drawer is forehand; cut by dealer - 1


def names(r, cards):
    return [r.deck.name(c) for c in cards]


def finish(state):
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("seed, drawn, seats", [
    (0, ["AS", "AH", "KS"], (0, 1, 2)),
    (1, ["AH", "AS", "KS"], (1, 0, 2)),
    (3, ["KS", "AH", "AS"], (2, 1, 0)),
])
def test_each_player_sits_where_the_card_he_drew_lies(seed, drawn, seats):
    r = load(RITUALS)
    session = Session(r, seed=seed)
    assert names(r, session.seat_draw) == drawn and session.seats == seats
    assert session.dealer == 0  # AH lies at seat 1, forehand when seat 0 deals, whoever drew it
    first = session.new_deal()
    assert first.seed == session._first_seed and names(r, first.seat_draw) == drawn
    assert draw_seats(r, first.seed) == first.seat_draw  # the draw comes from the first deal's own seed


def test_tresillo_draws_by_suits_only_as_an_option():
    r = load("tresillo(seat_draw=suits)")
    session = Session(r, seed=2)
    assert names(r, session.seat_draw) == ["AH", "AC", "AS", "AD"] and session.seats == (1, 3, 2, 0)
    first = session.new_deal()
    assert first.dealer == 0 and first.view(None)["seat_draw"] == [
        {"player": 0, "card": "AH", "seat": 1}, {"player": 1, "card": "AC", "seat": 3},
        {"player": 2, "card": "AS", "seat": 2}, {"player": 3, "card": "AD", "seat": 0}]
    assert first.view(3)["seat_draw"] == first.view(None)["seat_draw"]  # public
    assert session.new_deal().cut_at == -1  # no cut unless chosen
    three = Session(load("tresillo(seat_draw=suits,table=three)"), seed=2)
    assert names(three.rules, three.seat_draw) == ["AH", "AS", "AD"]  # the aces of oros, copas and espadas
    plain = Session(load("tresillo"), seed=2)
    assert plain.seat_draw == () and plain.seats == (0, 1, 2, 3) and load("tresillo").seat_draw is None


def test_swedish_vira_seats_by_drawn_suits_as_an_option():
    r = load("swedish-vira(seat_draw=suits)")
    session = Session(r, seed=3)  # player 2 draws the ace of hearts, which lies at seat 1
    assert names(r, session.seat_draw) == ["AD", "AC", "AH", "AS"] and session.seats == (2, 3, 1, 0)
    first = session.new_deal()
    # seat 1 (the hearts) is förhand: seat 0 deals, seat 3 on the dealer's right sits out
    assert first.dealer == 0 and first.to_move == 1 and first.view(None)["sitting_out"] == [3]
    three = Session(load("swedish-vira(seat_draw=suits,players=3)"), seed=2)
    assert names(three.rules, three.seat_draw) == ["AH", "AD", "AS"] and three.seats == (1, 2, 0)  # AS, AH, AD laid
    assert Session(load("swedish-vira"), seed=3).seat_draw == () and load("swedish-vira").seat_draw is None


def test_the_players_given_in_order_sit_at_their_drawn_seats():
    r = load(RITUALS)
    session = Session(r, seed=1)  # player 0 drew AH (seat 1), player 1 AS (seat 0), player 2 KS (seat 2)
    assert session.by_seat(["p0", "p1", "p2"]) == ["p1", "p0", "p2"]
    assert Session(load("tests/data/mini.yaml"), seed=1).by_seat(["a", "b", "c"]) == ["a", "b", "c"]
    with pytest.raises(OmbreError, match=r"^the draw for seats makes seat 0 the first dealer \(whoever draws AH "
                                         r"is forehand\), not seat 2$"):
        Session(r, seed=1, dealer=2)


def test_the_terminal_places_the_person_at_the_seat_he_draws():
    r = load(RITUALS)
    said: list[str] = []
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return "quit"

    from ombre_rules.players import make_player
    players = [make_player("random", i, r) for i in range(3)]
    play_table(r, players, 0, 1, -1, 2, ask=ask, say=said.append)
    assert said[0] == "draw for seats: player 0 (you) AH: seat 1, player 1 AS: seat 0, player 2 KS: seat 2"
    assert "seat 1 (forehand)" in said[2] and asked  # player 0 is forehand at seat 1 and is asked first


@pytest.mark.parametrize("seed, dealer, at, first_cards", [
    (7, 0, 32, ["QC", "QD", "6C"]),  # seat 3 (the dealer's left) lifts 32 cards: the 33rd card is dealt first
    (7, 1, 32, ["QC", "QD", "6C"]),  # the point comes from the seed alone, whoever cuts
    (8, 0, 35, ["KC", "QD", "QC"]),
])
def test_the_cut_lifts_a_seeded_number_of_cards_and_they_go_under(seed, dealer, at, first_cards):
    r = load("tresillo(cut=left)")
    assert cut_point(r, seed) == at and r.cut is not None and r.cut.who == (3, 0, 1, 2) and r.cut.least == 3
    s = State(r, seed=seed, dealer=dealer)
    order = shuffled(40, seed)
    assert s.cut_at == at and s.view(None)["cut"] == {"seat": (dealer + 3) % 4, "at": at}
    assert names(r, order[at:at + 3]) == first_cards
    assert set(first_cards) <= set(r.deck.names(s.deal_hands[(dealer + 1) % 4]))  # forehand's first packet
    assert State(load("tresillo"), seed=seed, dealer=dealer).cut_at == -1


def test_the_cut_deals_other_hands_than_the_same_seed_uncut():
    cut = State(load("tresillo(cut=left)"), seed=7, dealer=0)
    plain = State(load("tresillo"), seed=7, dealer=0)
    r = cut.rules
    assert r.deck.names(cut.deal_hands[1]) == ["2S", "5S", "6C", "QC", "5H", "7H", "KH", "QD", "KD"]
    assert r.deck.names(plain.deal_hands[1]) != r.deck.names(cut.deal_hands[1])
    assert names(r, cut.deal_talon) == ["7S", "4S", "AH", "JS", "3D", "4D", "5C", "4H", "6D", "AS", "2D", "AC",
                                        "AD"]


def test_the_log_shows_the_draw_and_the_cut():
    r = load(RITUALS)
    first = Session(r, seed=1).new_deal()
    lines = format_deal(first)
    assert lines[2] == "draw for seats: player 0 AH: seat 1, player 1 AS: seat 0, player 2 KS: seat 2"
    assert lines[3] == f"cut: seat 2 lifts {first.cut_at} cards" and first.cut_at == 5
    assert names(r, first.deal_talon) == ["KS", "KH"]


def test_the_record_keeps_the_draw_and_the_cut_and_replay_refuses_them_altered():
    r = load(RITUALS)
    first = finish(Session(r, seed=1).new_deal())
    rec = to_record(first)
    assert rec["seats"] == [{"player": 0, "card": "AH", "seat": 1}, {"player": 1, "card": "AS", "seat": 0},
                            {"player": 2, "card": "KS", "seat": 2}]
    assert rec["cut"] == {"seat": 2, "at": 5}
    assert replay(rec, r).result == rec["result"]

    swapped = {**rec, "seats": [{"player": 0, "card": "AS", "seat": 0}, {"player": 1, "card": "AH", "seat": 1},
                                {"player": 2, "card": "KS", "seat": 2}]}
    with pytest.raises(ReplayError) as ei:
        replay(swapped, r)
    assert str(ei.value) == (f"record field 'seats': the draw for seats differs from what seed {first.seed} draws: "
                             f"player 0 drew AH, not AS")
    moved = {**rec, "seats": [dict(d) for d in rec["seats"]]}
    moved["seats"][2]["seat"] = 1
    with pytest.raises(ReplayError, match=r"^record field 'seats': player 2 drew KS, the card of seat 2, not of "
                                          r"seat 1$"):
        replay(moved, r)
    foreign = {**rec, "seats": [dict(d) for d in rec["seats"]]}
    foreign["seats"][2]["card"] = "QS"
    with pytest.raises(ReplayError, match=r"^record field 'seats': the draw for seats must give each of the 3 "
                                          r"players one of AS, AH, KS, each once, not AH, AS, QS$"):
        replay(foreign, r)

    with pytest.raises(ReplayError) as ei:
        replay({**rec, "cut": {"seat": 2, "at": 4}}, r)
    assert str(ei.value) == (f"record field 'cut': the cut differs from what seed {first.seed} cuts: 5 cards "
                             f"lifted, not 4")
    with pytest.raises(ReplayError) as ei:
        replay({**rec, "cut": {"seat": 1, "at": 5}}, r)
    assert str(ei.value) == "record field 'cut': seat 2 cuts when seat 0 deals (deal.cut.who), not seat 1"
    with pytest.raises(ReplayError) as ei:
        replay({**rec, "cut": {"seat": 2, "at": 7}}, r)
    assert str(ei.value) == "record field 'cut': the cut must lift from 2 to 6 cards, not 7"
    other = to_record(finish(State(load("tests/data/mini.yaml"), seed=1)))
    with pytest.raises(ReplayError) as ei:
        replay({**other, "cut": {"seat": 0, "at": 3}})
    assert str(ei.value) == "record field 'cut': 'tests/data/mini.yaml' has no cut (deal.cut)"


def test_a_second_deal_carries_no_draw_and_clones_and_pickles_keep_both():
    r = load(RITUALS)
    session = Session(r, seed=1)
    first = session.new_deal()
    session.record(finish(first))
    second = session.new_deal()
    assert second.seat_draw == () and second.view(0)["seat_draw"] == [] and second.dealer == 1
    assert second.cut_at == cut_point(r, second.seed) and second.view(0)["cut"]["seat"] == 0
    s = Session(r, seed=3).new_deal()
    s.apply(s.legal_actions()[0])
    back = pickle.loads(pickle.dumps(s))
    assert (back.seat_draw, back.cut_at, back.history) == (s.seat_draw, s.cut_at, s.history)
    assert s.clone().seat_draw == s.seat_draw and s.clone().cut_at == s.cut_at
    assert seating(r, s.seat_draw) == (2, 1, 0)
    with pytest.raises(OmbreError, match=r"^the cut differs from what seed 5 cuts: 6 cards lifted, not 3$"):
        State(r, seed=5, dealer=0, cut=3)


def test_the_rulebook_tells_the_draw_and_the_cut():
    book = rulebook(load(RITUALS), examples=False)
    texts = {s.key: [getattr(i, "text", "") for i in s.items] for s in book.sections}
    assert ("Before the first deal one card is laid face down at each seat (seat 0: AS, seat 1: AH, seat 2: KS); "
            "each player draws one of the same cards and sits where his card lies. Whoever draws AH is forehand in "
            "the first deal.") in texts["session"]
    assert ("After the shuffle the player before the dealer cuts the pack: he lifts a packet from the top, leaving "
            "at least 2 cards in each packet, and the dealer puts the lower packet on top before he deals.") \
        in texts["deal"]


@pytest.mark.parametrize("text, where, message", [
    ("session:\n  seats: {cards: [AS, AH]}\n", "3:18",
     "session.seats lays 2 cards, but the table has 3 seats"),
    ("session:\n  seats: {cards: [AS, AH, XS]}\n", "3:27",
     "session.seats.cards: 'XS' is not a card of the deck"),
    ("session:\n  seats: {cards: [AS, AH, KS], forehand: QS}\n", "3:42",
     "session.seats.forehand: 'QS' is not one of the cards laid at the seats (AS, AH, KS)"),
    ("session:\n  first_dealer: {draw: highest}\n  seats: {cards: [AS, AH, KS], forehand: AH}\n", "4:42",
     "session.seats.forehand fixes the first dealer, so session.first_dealer cannot draw for him too"),
    ("deal: {packets: [2], cut: {who: dealer, min: 5}}\n", "2:46",
     "deal.cut.min is 5, but a pack of 8 cards cannot be cut into two packets of 5 or more"),
    ("deal: {packets: [2], cut: {who: dealer + 1}}\n", "2:33",
     "deal.cut.who must be a seat (0 to 2), and 'dealer + 1' may be 3\n    dealer + 1\n    ^"),
])
def test_load_errors_name_their_place(tmp_path, text, where, message):
    f = tmp_path / "v.yaml"
    f.write_text("extends: mini.yaml\n" + text)
    (tmp_path / "mini.yaml").write_text(open("tests/data/mini.yaml", encoding="utf-8").read())
    with pytest.raises((SpecError, SpecErrors)) as ei:
        load(str(f))
    assert str(ei.value) == f"{f}:{where}: {message}"


def test_a_cut_deal_written_as_a_position_reads_back_to_the_same_cut_and_hands():
    r = load("tresillo(cut=left)")
    s = State(r, seed=7, dealer=1)
    s.apply(s.legal_actions()[0])
    text = s.to_text()
    assert text == 'tresillo(cut=left) | dealer 1 | pool 0 | session {"puestas": []} | seed 7 | actions pass'
    back = State.from_text(text, r)
    assert (back.cut_at, back.deal_hands, back.history) == (32, s.deal_hands, s.history)
