"""The play rules of a contract (`play.first_leader`, `play.follow`, `play.follow_answers`, `play.claim`,
`play.concede`, `play.surrender`, `play.end_when`, each a contract's own or the variant's), and the follow
tables: for each led card, the obligations of `play.follow` as masks of the cards that bind and the cards that
satisfy them."""
from __future__ import annotations

from typing import Any

from ..envs import DEAL_FUNCS, DEAL_VARS, FOLLOW_FUNCS, FOLLOW_VARS
from ..errors import SpecError
from ..lang import Expr, Site
from ..lang import types as T
from .base import RulesetBase, _get_path
from .context import Context
from .contracts import Contract, PlayRules, Surrender, Takeover
from .fields import FollowRow, reads_winner


class PlayPart(RulesetBase):
    """The ruleset's part that compiles the play rules and builds the follow tables."""

    def _compile_play(self, c: Contract, cp: tuple) -> None:
        lsite = Site("play.first_leader", DEAL_VARS, DEAL_FUNCS, result=T.SEAT, unset="", objects=self.own(c))
        psite = Site("a play condition", DEAL_VARS, DEAL_FUNCS, result=T.COND, unset="", objects=self.own(c))
        p = self._pick(cp + ("play", "first_leader"), ("play", "first_leader"))
        first = self._expr(p, lsite) if p else self.compiler.compile("forehand", None, lsite)
        assert first is not None  # a path _pick gives holds a value
        follow: list[tuple[Expr, Expr | None]] = []
        p = self._pick(cp + ("play", "follow"), ("play", "follow"))
        fsite = Site("a play obligation", FOLLOW_VARS, FOLLOW_FUNCS, result=T.COND)
        for i, _ob in enumerate(_get_path(self.spec.data, p) if p else []):
            assert p is not None  # the loop runs over the list at p
            must = self._expr(p + (i, "must"), fsite)
            assert must is not None  # the schema requires `must`
            exempt = self._expr(p + (i, "exempt"), fsite)
            follow.append((must, exempt))
        claim = None
        claim_by_side = claim_tells = False
        p = self._pick(cp + ("play", "claim"), ("play", "claim"))
        if p:
            claim = (int(_get_path(self.spec.data, p + ("after_trick",))), self._expr(p + ("when",), psite, True))
            claim_by_side = _get_path(self.spec.data, p + ("by",)) == "side"
            claim_tells = _get_path(self.spec.data, p + ("tell_partner",)) is True
        concede = None
        p = self._pick(cp + ("play", "concede"), ("play", "concede"))
        if p:
            concede = (int(_get_path(self.spec.data, p + ("before_trick",))), self._expr(p + ("when",), psite),
                       self._expr(p + ("consent",), psite), self._expr(p + ("takeover",), psite))
        p = self._pick(cp + ("play", "surrender"), ("play", "surrender"))
        surrender = self._surrender(c, p, psite) if p else None
        p = self._pick(cp + ("play", "end_when"), ("play", "end_when"))
        end_when = self._expr(p, psite) if p else None
        p = self._pick(cp + ("play", "follow_answers"), ("play", "follow_answers"))
        highest = bool(p) and _get_path(self.spec.data, p) == "highest"
        c.play = PlayRules(first, tuple(follow), claim, concede, claim_by_side, claim_tells, surrender, end_when,
                           highest)

    def _surrender(self, c: Contract, p: tuple, psite: Site) -> Surrender:
        """`play.surrender` at path `p` (a contract's own or the variant's), with its take-over."""
        data = _get_path(self.spec.data, p) or {}
        when = self._expr(p + ("when",), psite, True)
        assert when is not None  # compiled with a default
        takeover = None
        t = data.get("takeover")
        if t is not None:
            tp = p + ("takeover",)
            by_site = Site("surrender.takeover.by", DEAL_VARS, DEAL_FUNCS, result=T.SEATS, unset="",
                           objects=self.own(c))
            by = self._expr(tp + ("by",), by_site, "defenders")
            when_site = Site("surrender.takeover.when", DEAL_VARS | {"bidder", "choice"}, DEAL_FUNCS, result=T.COND,
                             types=(("choice", T.CONTRACT),), unset="", objects=self.own(c))
            may = self._expr(tp + ("when",), when_site, True)
            named = tuple(self._contract_ref(k, tp + ("contracts", i)) for i, k in enumerate(t.get("contracts") or ()))
            takeover = Takeover(by, may, named, tp)
        return Surrender(when, str(data.get("at", "before_play")), takeover)

    def build_follow(self, ctx: Context, follow_id: int) -> list[FollowRow]:
        """Evaluate each obligation of a follow list for every (led card, card) pair once: per led card, a
        tuple of (bind mask, must mask) pairs, in the list's order. A list that reads `winning_card` also has a
        row for each led card and each card that can win over it (the row `led + nc * (winning + 1)`, see
        `row_after`; the pairs that cannot occur keep the led card's row)."""
        deck = self.deck
        env = ctx.env
        follow = self.follow_lists[follow_id]
        rows = []
        for led in deck.cards:
            env.led_card = env.winning_card = led
            env.led_suit = env.f_suit(led)
            rows.append(_row(follow, deck.cards, env))
        if not reads_winner(follow):
            return rows
        nc = len(rows)
        out = rows * (nc + 1)
        for led in deck.cards:
            env.led_card = led
            env.led_suit = env.f_suit(led)
            key = ctx.key[ctx.eff[led.id]]
            for w in deck.cards:
                if key[w.id] > key[led.id]:
                    env.winning_card = w
                    out[led.id + nc * (w.id + 1)] = _row(follow, deck.cards, env)
        return out


def _row(follow: Any, cards: Any, env: Any) -> FollowRow:
    """The (bind mask, must mask) pairs of a follow list for the trick `env` holds."""
    pairs = []
    for must, exempt in follow:
        mm = xm = 0
        for c in cards:
            env.card = c
            if _checked(must, env):
                mm |= 1 << c.id
                if exempt is not None and _checked(exempt, env):
                    xm |= 1 << c.id
        pairs.append((mm & ~xm, mm))
    return tuple(pairs)

def _checked(expr: Expr, env: Any) -> Any:
    """Evaluate an expression while building tables; a failure is reported at its place in the file."""
    try:
        return expr.fn(env)
    except Exception as ex:
        raise SpecError(f"expression '{expr.text}' failed for led card {env.led_card} and card {env.card}: {ex}",
                        expr.loc) from None
