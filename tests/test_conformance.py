"""Random play of many deals: the invariants every variant must keep."""
from __future__ import annotations

import json
import os
import random

import pytest
from sizes import share

from ombre_rules import State, load
from ombre_rules.engine.view import visible_cards
from ombre_rules.records import replay, to_record

DATA = os.path.join(os.path.dirname(__file__), "data")
DEALS = share(10_000)
LATER_DEALS = share(10_000)  # the later variants' default games


def _hidden_from(state: State, seat: int | None) -> int:
    """Cards seat (None: a spectator) may not know now: the others' hands and discards, the undrawn stock unless
    shown."""
    known = visible_cards(state, seat)
    m = 0
    for s in range(state.n):
        if s != seat:
            m |= state.hands[s] | state.discards[s]
    for c in state.talon:
        m |= 1 << c
    if state.called >= 0:  # a called card is named openly; who holds it is checked in test_partner
        m &= ~(1 << state.called)
    if state.rules.turn_up_from == "second_pack":  # a second pack's card is named openly; its twin is no clue
        m &= ~(1 << state.turn_up)
    r = state.rules
    if seat == state.current_player and state.phase_name == "call":  # the cards one may call are named, not placed
        for a in state.legal_actions():
            m &= ~(1 << (a - r.A_CALL))
    return m & ~known


def _check_view(state: State, seat: int | None) -> None:
    names = set()
    v = state.view(seat)
    # a card one may demand is named whoever holds it: the legal demands tell nothing about other hands
    v["legal"] = [a for a in v.get("legal", []) if not a.startswith("demand ")]
    text = json.dumps(v)
    deck = state.rules.deck
    hidden = _hidden_from(state, seat)
    for c in range(deck.size):
        if hidden >> c & 1:
            names.add(deck.name(c))
    leaked = sorted(n for n in names if f'"{n}"' in text or f" {n}\"" in text)
    assert not leaked, f"seat {seat} sees {leaked}"


def _run(rules, deals: int, seed: int, views: bool, contracts: dict | None = None, choose=None,
         view_every: int = 1) -> dict:
    rng = random.Random(seed)
    choose = choose or (lambda state, legal: rng.choice(legal))
    full = rules.deck.full_mask
    outcomes: dict[str, int] = {}
    pool = 0
    carried = None  # the values carried between deals (session.carry), as a session carries them
    dealer = 0
    for i in range(deals):
        s = State(rules, seed=rng.getrandbits(32), dealer=dealer, pool=pool, session=carried)
        probe_at = rng.randrange(40)
        view_at = {rng.randrange(45), rng.randrange(45)} if views and i % view_every == 0 else set()
        twin = None
        steps = 0
        while not s.is_terminal:
            legal = s.legal_actions()
            assert legal, f"deal {i}: no legal action in {s.phase_name}"
            assert len(set(legal)) == len(legal)
            held = 0
            for h in s.hands:
                assert not held & h
                held |= h
            for d in s.discards:
                held |= d
            for c in s.talon:
                held |= 1 << c
            for _l, cards, _w in s.trick_log:
                for c in cards:
                    held |= 1 << c
            for c in s.trick:
                held |= 1 << c
            assert held == full, f"deal {i}: cards not conserved"
            if steps == probe_at:
                twin = s.clone()
            if steps in view_at:
                for seat in (*range(s.n), None):  # None: the spectator
                    _check_view(s, seat)
            a = choose(s, legal)
            s.apply(a)
            if twin is not None and twin is not s:
                twin.apply(a)
            steps += 1
            assert steps < 500, "deal does not end"
        res = s.result
        assert sum(res.payments) + res.pool_after - res.pool_before == 0
        assert res.pool_after >= 0
        if twin is not None:
            assert twin.result == res and twin.history == s.history
        rec = json.loads(json.dumps(to_record(s)))
        assert replay(rec, rules).result == res.to_dict()
        outcomes[res.outcome] = outcomes.get(res.outcome, 0) + 1
        if contracts is not None:
            contracts[res.contract] = contracts.get(res.contract, 0) + 1
        pool = res.pool_after
        carried = res.session_after
        dealer = rules.next_seat[dealer]
    return outcomes


def test_ombre_random_deals_keep_every_invariant():
    outcomes = _run(load("ombre"), DEALS, 1, views=True)
    assert sum(outcomes.values()) == DEALS
    assert set(outcomes) >= {"sacada", "puesta", "codille", "all_pass", "vole_failed"}


OPTION_RUNS = [
    "ombre(all_pass=spadille_force)",
    "ombre(all_pass=contrabola)",
    "ombre(allow_concede=true)",
    "ombre(tie_above_ombre=codille_shared)",
    "ombre(estuches_min_run=3)",
    "ombre(first_defender_max=9)",
    "ombre(defender_first=positional)",
    "ombre(ante_mode=dealer)",
    "ombre(leftover_stock=all)",
    "ombre(leftover_stock=last_exchanger)",
    "ombre(four_players=dealer_sits_out)",
    "ombre(four_players=opposite_sits_out_with_takeover)",
]


@pytest.mark.parametrize("variant", OPTION_RUNS)
def test_each_option_keeps_every_invariant(variant):
    outcomes = _run(load(variant), share(1000), 2, views=True)
    assert sum(outcomes.values()) == share(1000)


def test_ombre_a_dos_random_deals_keep_every_invariant():
    contracts: dict = {}
    outcomes = _run(load("ombre-a-dos"), DEALS, 3, views=True, contracts=contracts)
    assert sum(outcomes.values()) == DEALS
    assert set(outcomes) == {"sacada", "remise", "codille", "vole", "vole_failed", "all_pass"}
    assert set(contracts) == {"entrada", "vuelta", "solo", None}


NEW_OPTION_RUNS = [
    "ombre-a-dos(removed_suit=hearts)",
    "ombre-a-dos(matadors_paid_on_naming=false)",
    "ombre-a-dos(other_exchange=rest)",
    "ombre-a-dos(ombre_min_exchange=1)",
    "ombre-a-dos(vole=false)",
    "ombre(scoring_model=pool_and_beasts)",
    "ombre(scoring_model=pool_and_beasts,fish=12)",
]


@pytest.mark.parametrize("variant", NEW_OPTION_RUNS)
def test_each_new_option_keeps_every_invariant_on_many_deals(variant):
    outcomes = _run(load(variant), DEALS, 4, views=False)
    assert sum(outcomes.values()) == DEALS


DANISH_CONTRACTS = {"simple", "spade", "tourne", "simple_nolo", "grand_tourne", "solo", "spade_solo", "pure_nolo",
                    "nolo_ouvert"}


def test_danish_random_deals_keep_every_invariant():
    outcomes = _run(load("danish-lhombre"), DEALS, 3, views=True)
    assert sum(outcomes.values()) == DANISH_DEALS
    assert set(outcomes) >= {"won", "bete", "codille", "surrender", "all_pass", "tout_failed"}


DANISH_DEALS = DEALS
DANISH_OPTION_RUNS = [
    "danish-lhombre(scale=pagat_isl)",
    "danish-lhombre(scale=pagat_isl,nolo_loss_cap=4)",
    "danish-lhombre(contract_choice=exact)",
    "danish-lhombre(four_players=opposite_sits_out)",
    "danish-lhombre(four_players=opposite_sits_out,sitter_shares_payments=true)",
    "danish-lhombre(ouvert_expose_at=declarer_first_card)",
    "danish-lhombre(allow_surrender=false)",
    "danish-lhombre(simple_nolo_min_buy=0)",
    "danish-lhombre(trump_named=after_buying)",
    "danish-lhombre(leftover_talon_visible=true)",
    "danish-lhombre(pure_nolo_bid=same_level)",
]


@pytest.mark.parametrize("variant", DANISH_OPTION_RUNS)
def test_each_danish_option_keeps_every_invariant(variant):
    rules = load(variant)
    outcomes = _run(rules, DANISH_DEALS, 4, views=True)
    assert sum(outcomes.values()) == DANISH_DEALS
    if rules.players == 4:
        assert rules.active == 3


def _cautious(seed: int):
    """Random play that passes often in the auction, so that low contracts are reached too."""
    rng = random.Random(seed)

    def choose(state, legal):
        if state.phase_name == "auction" and rng.random() < 0.6:
            return legal[0]  # pass
        return rng.choice(legal)
    return choose


@pytest.mark.parametrize("variant", ["danish-lhombre", "danish-lhombre(contract_choice=exact)"])
def test_danish_random_play_reaches_every_contract(variant):
    contracts: dict = {}
    _run(load(variant), 3000, 5, views=False, contracts=contracts, choose=_cautious(5))
    assert set(contracts) - {None} == DANISH_CONTRACTS


def test_taroc_random_deals_keep_every_invariant():
    outcomes = _run(load("taroc-lhombre"), DEALS, 3, views=True, view_every=10)
    assert sum(outcomes.values()) == DEALS
    assert set(outcomes) == {"paid", "won", "lost", "remis"}


TAROC_OPTION_RUNS = [
    "taroc-lhombre(type=new)",
    "taroc-lhombre(type=decl)",
    "taroc-lhombre(hold_levels=due_uno)",
    "taroc-lhombre(demand_trull=false)",
    "taroc-lhombre(demand_return=empty)",
    "taroc-lhombre(tout_payment=add)",
    "taroc-lhombre(excuse_last_trick=lost)",
    "taroc-lhombre(declarer_may_raise=true)",
    "taroc-lhombre(jump_bids=false)",
    "taroc-lhombre(scus_obliges=true)",
]


def test_tresillo_random_deals_keep_every_invariant():
    contracts: dict = {}
    outcomes = _run(load("tresillo"), LATER_DEALS, 6, views=True, contracts=contracts, choose=_cautious(6),
                    view_every=10)
    assert sum(outcomes.values()) == LATER_DEALS
    assert {"entrada", "entrada_clubs", "vuelta", "solo", "solo_clubs"} <= set(contracts)
    assert {"sacada", "puesta", "codillo", "defended_taken", "defended_saved"} <= set(outcomes)


TRESILLO_OPTION_RUNS = [
    "tresillo(table=three)",
    "tresillo(favour_suit=oros)",
    "tresillo(favour_suit=none)",
    "tresillo(favour_extra=0)",
    "tresillo(all_pass=espada_forzada)",
    "tresillo(all_pass=contrabola)",
    "tresillo(declared_bola=true)",
    "tresillo(estuches_min_run=1)",
    "tresillo(entrada_min_exchange=1)",
    "tresillo(tie_above_jugador=codillo_shared)",
    "tresillo(vuelta_surrender=needs_both_consent)",
    "tresillo(defender_first=positional)",
    "tresillo(leftover_stock=all)",
    "tresillo(leftover_stock=last_exchanger)",
    "tresillo(primeras=0,bola_bonus=30)",
    "tresillo(puesta_accumulation=merge)",
    "tresillo(puesta_amount=stake_plus_values)",
    "tresillo(puesta_amount=fixed:25,enchilada=50)",
    "tresillo(puesta_pays_players=false,primeras_symmetric=true)",
    "tresillo(hold_requires_prior_bid=true)",
    "tresillo(stop_when_decided=true,declared_bola=true)",
    "tresillo(matador_forced_by=led_or_played_earlier)",
]


def _played_out(rules, seed: int, pool: int, carried) -> State:
    """One deal of random legal play, its choices drawn from a generator of its own seed."""
    rng = random.Random(seed)
    s = State(rules, seed=seed, dealer=seed % 4, pool=pool, session=carried)
    while not s.is_terminal:
        s.apply(rng.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize("base", ["tresillo", "tresillo(declared_bola=true,primeras_symmetric=true)"])
def test_tresillo_stop_when_decided_changes_no_payment(base):
    """The same deals and choices with and without stop_when_decided: the same outcome, payments, plate and
    queue; play stops early in some of them."""
    full = load(base)
    short = load(base[:-1] + ",stop_when_decided=true)" if "(" in base else base + "(stop_when_decided=true)")
    pool, carried, early = 0, None, 0
    for seed in range(400):
        a, b = _played_out(full, seed, pool, carried), _played_out(short, seed, pool, carried)
        ra, rb = a.result, b.result
        assert (ra.outcome, ra.payments, ra.pool_after, ra.session_after) == \
            (rb.outcome, rb.payments, rb.pool_after, rb.session_after), f"deal {seed}"
        early += len(b.trick_log) < len(a.trick_log)
        pool, carried = ra.pool_after, ra.session_after
    assert early > 100


def test_rocambor_random_deals_keep_every_invariant():
    contracts: dict = {}
    outcomes = _run(load("rocambor"), LATER_DEALS, 7, views=True, contracts=contracts, choose=_cautious(7),
                    view_every=10)
    assert sum(outcomes.values()) == LATER_DEALS
    assert {"entrada_diamonds", "volteo", "solo_diamonds", "espada_obligada", "penetro", "contrabola"} <= set(contracts)


ROCAMBOR_OPTION_RUNS = [
    "rocambor(table=three)",
    "rocambor(sitter_shares_payments=false)",
    "rocambor(punto=plain_order)",
    "rocambor(hold=none)",
    "rocambor(must_trump_when_void=true)",
    "rocambor(jugador_max_oros=8,first_defender_max=8)",
    "rocambor(favour_value_follows=contract_name)",
    "rocambor(forced_exchange_before_trumps=true)",
    "rocambor(contrabola_trumps=named)",
    "rocambor(surrender=none)",
    "rocambor(declared_bola=true)",
    "rocambor(penetro_mode=free_for_all)",
    "rocambor(upgrade_after_auction=true,oros_not_opening=true,declared_bola=true)",
    "rocambor(scoring_model=race_points)",
    "rocambor(scoring_model=race_points,table=three,tie_above_jugador=codillo_shared)",
]


GERMAN_SOLO_CONTRACTS = {"frage", "frage_couleur", "grossfrage", "solo", "solo_couleur", "tout", "tout_couleur",
                         "mussfrage"}


def _shy_bidder(seed: int):
    """Random choices, but a pass at most bids, so that every seat passing (the forced game) and low bids that
    stand happen often."""
    rng = random.Random(seed)

    def choose(state, legal):
        r = state.rules
        if state.phase_name == "auction" and r.A_PASS in legal and rng.random() < 0.7:
            return r.A_PASS
        return rng.choice(legal)
    return choose


def test_rocambor_free_for_all_penetro_with_shy_bidders_keeps_every_invariant():
    outcomes = _run(load("rocambor(penetro_mode=free_for_all,scoring_model=race_points)"), 400, 7, views=True,
                    view_every=2, choose=_shy_bidder(7))
    assert sum(outcomes.values()) == 400
    assert outcomes.get("penetro_won", 0) > 0  # all pass, the espada in the talon, the sitter plays


def test_german_solo_random_deals_keep_every_invariant():
    contracts: dict = {}
    outcomes = _run(load("german-solo"), share(10_000), 5, views=True, contracts=contracts, view_every=4,
                    choose=_shy_bidder(5))
    assert sum(outcomes.values()) == share(10_000)
    assert set(outcomes) >= {"won", "lost", "tout_failed"}  # a sweep of five is rare in random play
    assert set(contracts) == GERMAN_SOLO_CONTRACTS


GERMAN_SOLO_OPTION_RUNS = [
    "german-solo(direction=ccw)", "german-solo(couleur=first_game)", "german-solo(couleur=fixed_clubs)",
    "german-solo(grossfrage_value=8)", "german-solo(grossfrage_requires_both_black_queens=false)",
    "german-solo(compulsory_bids=false)", "german-solo(mussfrage_form=frage)", "german-solo(prime_bonus=0)",
    "german-solo(failed_slam=won_base)", "german-solo(mussfrage_slam=true)", "german-solo(alliance_pay=each_to_each)",
    "german-solo(matador_privilege=true)", "german-solo(tout_declarer_leads=true)",
    "german-solo(bid_order=by_value,grossfrage_value=8)", "german-solo(stop_when_decided=true)",
    "german-solo(matadors=true)", "german-solo(scoring=pot)", "german-solo(scoring=pot,pot_solo_loss=forfeit)",
]


@pytest.mark.parametrize("variant", GERMAN_SOLO_OPTION_RUNS)
def test_each_german_solo_option_keeps_every_invariant(variant):
    # played as sessions of 16 deals (session.deals): each starts with an empty pot and no couleur, so that a pot
    # doubled by every lost Solo (scoring=pot) grows no further than in one session
    rules = load(variant)
    deals = share(1000)
    outcomes: dict = {}
    for k, start in enumerate(range(0, deals, 16)):
        n = min(16, deals - start)
        for name, m in _run(rules, n, 6 + k, views=True, view_every=5, choose=_shy_bidder(6 + k)).items():
            outcomes[name] = outcomes.get(name, 0) + m
    assert sum(outcomes.values()) == deals
def test_preference_random_deals_keep_every_invariant():
    contracts: dict = {}
    outcomes = _run(load("preference"), LATER_DEALS, 6, views=True, contracts=contracts, view_every=10)
    assert sum(outcomes.values()) == LATER_DEALS
    assert set(outcomes) == {"won", "lost", "unplayed", "all_pass"}
    assert set(contracts) == {"one", "two", "three", "four", "hand", "betl", "sans", None}


PREFERENCE_OPTION_RUNS = [
    "preference(direction=counterclockwise)",
    "preference(suit_numbers=spades_lowest)",
    "preference(pot_funding=seeded)",
    "preference(pot_funding=each_antes)",
    "preference(pot_shortfall=cap)",
    "preference(deal_packets=T-3-2-3-2)",
    "preference(number_bids_step_by_one=true)",
    "preference(must_trump=false)",
    "preference(declarer_target=5)",
    "preference(quota_alone=3)",
    "preference(invited_must_accept=false)",
    "preference(show_talon=true)",
    "preference(contract_upgrade_after_talon=true)",
    "preference(kontra=true)",
    "preference(four_players=dealer_sits_out)",
    "preference(betl_value=6,sans_value=7,hand_factor=1)",
    "preference(hand_for_all=true,contract_upgrade_after_talon=true)",
    "preference(betl_defenders_decide=false)",
    "preference(sans_lead_without_d2=declarer)",
    "preference(stop_when_decided=false,hand_for_all=true)",
    "preference(pot_funding=seeded,pot_seed_per_player=20,four_players=dealer_sits_out)",
    "preference(trump_by_first_lead=true,kontra=true)",
    "preference(pot_session_end=carry)",
    "preference(scoring=historic)",
    "preference(all_pass=turn_talon,number_bids_step_by_one=true)",
]


# the options of the later variants, each with the seed of its variant's runs
FAMILY_OPTION_RUNS = ([(v, 4) for v in TAROC_OPTION_RUNS] + [(v, 6) for v in TRESILLO_OPTION_RUNS]
                      + [(v, 7) for v in ROCAMBOR_OPTION_RUNS] + [(v, 7) for v in PREFERENCE_OPTION_RUNS])


@pytest.mark.parametrize(("variant", "seed"), FAMILY_OPTION_RUNS, ids=[v for v, _seed in FAMILY_OPTION_RUNS])
def test_each_option_of_the_later_variants_keeps_every_invariant(variant, seed):
    outcomes = _run(load(variant), share(1000), seed, views=True, view_every=5)
    assert sum(outcomes.values()) == share(1000)


# the generic mechanics that no built-in variant takes yet, with their test files (tests/data)
MECHANIC_RUNS = [f"{DATA}/turn_up.yaml(turn={kind})" for kind in ("talon_top", "dealer_last", "second_pack")]
MECHANIC_RUNS.append(f"{DATA}/turn_up.yaml(keep_taken=true)")
MECHANIC_RUNS += [f"{DATA}/teams.yaml(partnerships={p})" for p in ("fixed", "none")]
MECHANIC_RUNS += [f"{DATA}/teams.yaml(auto_pass=true)", f"{DATA}/teams.yaml(alone=true)"]
MECHANIC_RUNS += [f"{DATA}/seat_exchange.yaml(alone={a})" for a in ("false", "true")]
MECHANIC_RUNS += [f"{DATA}/no_auction.yaml(forced={f})" for f in ("fixed", "choose")]
MECHANIC_RUNS += [f"{DATA}/takeover.yaml(at={at})" for at in ("after_declarer_exchange", "before_exchange")]
MECHANIC_RUNS.append(f"{DATA}/takeover.yaml(at=before_exchange,choose=true)")
MECHANIC_RUNS += [f"{DATA}/stand_in.yaml(sees={s})" for s in ("true", "false")]


@pytest.mark.parametrize("variant", MECHANIC_RUNS, ids=[v.rsplit("/", 1)[-1] for v in MECHANIC_RUNS])
def test_each_mechanic_file_keeps_every_invariant(variant):
    outcomes = _run(load(variant), share(1000), 8, views=True, view_every=3)
    assert sum(outcomes.values()) == share(1000)


# issue 38's games in YAML alone: random deals of each, and of each other choice of their options
ISSUE38_OUTCOMES = {
    "euchre": {"point", "march", "euchre", "lone_march", "all_pass"},
    "sextille": {"hand_wins", "dealer_wins", "hand_sweep", "dealer_sweep"},
    "bete": {"won", "bete", "devole", "vole", "all_pass"},
    "solo-whist": {"won", "lost", "misere_won", "misere_lost", "all_pass"},
    "swedish-vira": {"made", "bet", "kodilj", "laid_down", "all_pass"},
}


@pytest.mark.parametrize("variant", sorted(ISSUE38_OUTCOMES))
def test_issue38_random_deals_keep_every_invariant(variant):
    outcomes = _run(load(variant), share(2000), 9, views=True, view_every=5)
    assert sum(outcomes.values()) == share(2000)
    assert set(outcomes) <= ISSUE38_OUTCOMES[variant]
    assert len(outcomes) >= 3  # several ways to end were met


ISSUE38_OPTION_RUNS = [
    "euchre(deck=32,target=5,lone_euchre_points=4)", "euchre(all_pass=stick_the_dealer)",
    "euchre(all_pass=stick_the_dealer,stuck_dealer_may_name_turned=true)", "euchre(dealer_needs_natural_trump=true)",
    "euchre(going_alone=false)", "euchre(lone_first_lead=left_of_lone_player)", "euchre(stop_when_decided=true)",
    "sextille(ace=high,follow=head)", "sextille(ace_turned_point=true)", "sextille(stop_when_decided=false)",
    "sextille(game=target,target=3)",
    "bete(players=4)", "bete(players=5,deck=36)", "bete(head=highest_so_far)", "bete(must_trump=false)",
    "bete(devole=encyclopedie)", "bete(king_of_trumps=2)", "bete(stop_when_decided=false)",
    "solo-whist(stakes=english,english_solo=12)", "solo-whist(abundance_declared_trumps=none)",
    "solo-whist(all_pass=general_misere)", "solo-whist(stop_when_decided=false)",
    "swedish-vira(players=3)", "swedish-vira(opponents_buy=false)", "swedish-vira(stop_when_decided=true)",
    "swedish-vira(bet_in_pins=4)",
]


@pytest.mark.parametrize("variant", ISSUE38_OPTION_RUNS)
def test_each_issue38_option_keeps_every_invariant(variant):
    outcomes = _run(load(variant), share(500), 10, views=True, view_every=5)
    assert sum(outcomes.values()) == share(500)
