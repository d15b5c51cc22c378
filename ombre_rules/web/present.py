"""What a browser is sent: one seat's view (or the public view) with what the page needs to draw it.

Everything shown comes from the rules and `State.view`: card faces (rank and suit, the words a screen reader
says), suit symbols and colours (the suits' `symbol` and `colour` attributes), contract titles, the hand in the
order of the current trump context, the controls built from the legal actions with a line on each, what a
choice of several cards asks for (how many), why a card in hand may not be chosen, the phase in a line with
its rulebook section, why the deal ended as it did and its account in words, and the values a session carries
between deals under the file's words for them (`terms:`, the value's `doc:`)."""
from __future__ import annotations

import weakref
from typing import Any

from ..engine.phases import EXCHANGE, LAYAWAY
from ..errors import IllegalActionError, OmbreError
from ..explain.account import account as account_of
from ..explain.account import terms
from ..explain.phrase import phrase
from ..explain.why import why_illegal
from ..ruleset import SPECIAL_VERBS, Ruleset
from ..ruleset.carry import TYPES
from .words import outcome_reason, words

CARD_VERBS = ("play", "discard", "give")  # actions on a card of one's hand
WORD_LABELS = {v: v.replace("_", " ").capitalize() for v in SPECIAL_VERBS}
_PLAIN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def suits(rules: Ruleset) -> list[dict[str, Any]]:
    """The suits as the page draws them: name, letter, symbol (or the letter) and colour."""
    out = []
    for s in rules.deck.suits:
        out.append({"name": s.name, "letter": s.letter, "symbol": str(s.attrs.get("symbol") or s.letter or ""),
                    "colour": str(s.attrs.get("colour") or "")})
    return out


def contract_titles(rules: Ruleset) -> dict[str, str]:
    """Each contract's title, or its name made readable."""
    return {c.name: c.title if c.title and c.title != c.name else c.name.replace("_", " ").capitalize()
            for c in rules.contracts}


def carried(rules: Ruleset) -> list[dict[str, Any]]:
    """The values the session carries between deals (`session.carry`, none without it), in the file's order:
    name, label (the file's term for it, or the name made readable), what it is (its `doc:`) and its type."""
    if rules.carry is None:
        return []
    decl = (rules.spec.data.get("session") or {}).get("carry") or {}
    said = terms(rules)
    kinds = {t: w for w, t in TYPES.items()}
    return [{"name": n, "label": said.get(n) or n.replace("_", " ").capitalize(),
             "doc": str((decl.get(n) or {}).get("doc") or ""), "type": kinds[t]}
            for n, t in zip(rules.carry.names, rules.carry.types, strict=True)]


def table_facts(rules: Ruleset) -> dict[str, Any]:
    """What a page needs about the rules at a table, the same for every seat: suits, contracts (title and a
    line on each), the values carried between deals, what sitting out means, the variant's own line."""
    w = words(rules)
    return {"suits": suits(rules), "contracts": contract_titles(rules), "contract_docs": w.contracts,
            "outcome_docs": {k: v for k, v in w.outcomes.items() if v}, "carry": carried(rules),
            "sit_out_doc": w.lines.get("sit_out", ""), "doc": str(rules.spec.data.get("doc") or "")}


def _plain_order(rules: Ruleset) -> list[tuple[int, float]]:
    """A sort key per card for a hand before trumps are known: cards that are trumps whatever the trump suit
    first, then suit by suit, each card by its mean strength where it is not a trump."""
    cached = _PLAIN.get(rules)
    if cached is not None:
        return cached
    deck = rules.deck
    strengths: list[list[int]] = [[] for _ in deck.cards]
    as_trump: list[list[int]] = [[] for _ in deck.cards]
    always = (1 << deck.size) - 1
    for trump in (None, *deck.suits):
        try:
            ctx = rules.context("", trump)
        except OmbreError:
            continue
        always &= ctx.trump_mask if trump is not None else always
        for c in range(deck.size):
            (as_trump if ctx.trump_mask >> c & 1 else strengths)[c].append(ctx.power[c])
    key = []
    for c, card in enumerate(deck.cards):
        top = always >> c & 1
        xs = as_trump[c] if top else strengths[c]
        key.append((0 if top else 1 + card.suit.index, -sum(xs) / len(xs) if xs else 0.0))
    _PLAIN[rules] = key
    return key


def sort_hand(state, names: list[str]) -> list[str]:
    """A hand in the order of the current trump context: trumps first, then suit by suit, high to low."""
    deck = state.rules.deck
    ctx = state.ctx
    if ctx is None:
        plain = _plain_order(state.rules)
        return sorted(names, key=lambda n: plain[deck.by_name[n]])

    def key(name: str) -> tuple[int, int]:
        c = deck.by_name[name]
        trump = ctx.trump_mask >> c & 1
        return (0 if trump else 1 + ctx.eff[c], -ctx.power[c])

    return sorted(names, key=key)


def card_faces(state, v: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Rank, suit and trump membership of every card named anywhere in a view (and of no other card)."""
    deck = state.rules.deck
    ctx = state.ctx
    w = words(state.rules)
    out: dict[str, dict[str, Any]] = {}

    def visit(x: Any) -> None:
        if isinstance(x, str):
            word = x.rsplit(" ", 1)[-1]
            c = deck.by_name.get(word)
            if c is not None and word not in out:
                card = deck.cards[c]
                out[word] = {"rank": card.rank, "suit": card.suit.index, "face": w.faces[word],
                             "spoken": w.spoken[word], "trump": bool(ctx is not None and ctx.trump_mask >> c & 1)}
        elif isinstance(x, dict):
            for y in x.values():
                visit(y)
        elif isinstance(x, list):
            for y in x:
                visit(y)

    visit(v)
    return out


def _label(rules: Ruleset, text: str, titles: dict[str, str]) -> str:
    verb, _, arg = text.partition(" ")
    if verb == "bid":
        return titles.get(arg, arg)
    if verb == "trump":
        s = rules.deck.suit_by_name[arg]
        sym = s.attrs.get("symbol") or ""
        return f"{sym} {arg.capitalize()}".strip()
    if not arg:
        return WORD_LABELS.get(verb, verb.capitalize())
    return f"{verb.capitalize()} {words(rules).faces.get(arg, arg)}"


def controls(state, seat: int) -> list[dict[str, Any]]:
    """The seat's legal actions, each with its verb, its card (if any) and a label."""
    rules = state.rules
    titles = contract_titles(rules)
    w = words(rules)
    out = []
    for a in state.legal_actions():
        text = rules.action_str(a)
        verb, _, arg = text.partition(" ")
        card = arg if arg in rules.deck.by_name else None
        out.append({"action": text, "verb": verb, "card": card, "label": _label(rules, text, titles),
                    "in_hand": verb in CARD_VERBS, "doc": w.control(verb, arg)})
    return out


def choice(state) -> dict[str, Any] | None:
    """What a choice of several cards asks of the seat to move, for a page that lets it pick them and then
    confirm: the verb, how many more it may (and must) choose, and the action that ends the turn after them."""
    if state.phase == EXCHANGE:
        k = state.ex_count
        return {"verb": "discard", "min": max(0, state.ex_min - k), "max": max(0, state.ex_max - k),
                "then": "draw", "taken": bool(state.contract.exchange.take_talon and state.to_move == state.declarer)}
    if state.phase == LAYAWAY:
        left = max(0, state.ex_max - state.ex_count)
        return {"verb": "discard", "min": left, "max": left, "then": None, "taken": False}
    return None


def refusal(state, text: str) -> str:
    """Why an action may not be taken now, with cards written as rank and suit symbol."""
    return words(state.rules).symbols(_refusal(state, text))


def _refusal(state, text: str) -> str:
    """Why an action may not be taken now: the obligation that binds (from the rulebook), or what the engine
    says (without its list of the legal actions)."""
    why = why_illegal(state, state.rules.parse_action(text))
    if why:
        return why
    s = state.clone()
    try:
        s.apply_str(text)
    except IllegalActionError as e:
        msg = e.message.split("; legal:")[0]
        if " is not legal for seat " not in msg:
            return msg
    except OmbreError as e:
        return e.message
    led = state.trick[0] if state.trick else -1
    if text.startswith("play ") and led >= 0:
        return f"not a legal card now ({state.rules.deck.name(led)} was led)"
    return "not allowed now"


def account(state) -> list[dict[str, Any]]:
    """The account of a finished deal's payments, entry by entry, in words: no transfer of nothing, each
    amount's terms said as the rulebook says them, cards as rank and suit symbol."""
    rules = state.rules
    w = words(rules)
    said = terms(rules)
    out = []
    for e in account_of(state, lambda text: phrase(text, said, rules.spec.options)):
        if e.amount:
            d = e.to_dict()
            d["label"] = w.symbols(said.get(d["label"], d["label"]))
            d["why"] = w.symbols(d["why"])
            out.append(d)
    return out


def seat_view(state, seat: int | None) -> dict[str, Any]:
    """The view a browser gets: the seat's own (or the public one), the hand sorted, controls and reasons."""
    v = state.view(seat)
    v["hand"] = sort_hand(state, v["hand"])
    v["trick_leader"] = state.leader if state.trick else None
    v.pop("legal", None)
    if seat is not None and state.current_player == seat and not state.is_terminal:
        ctrl = controls(state, seat)
        v["controls"] = ctrl
        legal_cards = {c["card"] for c in ctrl if c["in_hand"]}
        verbs = {c["verb"] for c in ctrl if c["in_hand"]}
        v["refused"] = {}
        for verb in verbs:
            for name in v["hand"]:
                if name not in legal_cards:
                    v["refused"][name] = refusal(state, f"{verb} {name}")
    else:
        v["controls"] = []
        v["refused"] = {}
    w = words(state.rules)
    contract = state.contract.name if state.contract is not None else None
    v["phase_doc"] = w.phase(state.phase_name, contract, state.current_player == state.declarer)
    v["section"] = w.section(state.phase_name, contract)
    if seat is not None and state.current_player == seat and not state.is_terminal:
        v["choose"] = choice(state)
    if state.result is not None:
        v["account"] = account(state)
        v["reason"] = w.symbols(outcome_reason(state))
    v["cards"] = card_faces(state, v)
    return v
