"""Actions as ints: the id ranges of each kind (play, discard, bid, trump, the verbs without an argument,
call, give, demand), and their notation both ways."""
from __future__ import annotations

from ..checks import action_id
from ..errors import InvalidActionError, did_you_mean
from .base import RulesetBase

# the actions without an argument, in the order of their ids
SPECIAL_VERBS = ("pass", "hold", "draw", "cede", "stop", "concede", "accept", "refuse", "continue",
                 "follow", "invite", "double", "redouble", "alone", "take_over")


class ActionPart(RulesetBase):
    """The ruleset's part that numbers the actions and reads and writes their notation."""

    def _number_actions(self) -> None:
        """Give each kind of action its range of ids (after the deck, contracts and suits are known)."""
        deck = self.deck
        nc, nk, ns = deck.size, len(self.contracts), len(deck.suits)
        self.A_DISCARD = nc
        self.A_BID = 2 * nc
        self.A_TRUMP = 2 * nc + nk
        base = 2 * nc + nk + ns
        (self.A_PASS, self.A_HOLD, self.A_DRAW, self.A_CEDE, self.A_STOP, self.A_CONCEDE,
         self.A_ACCEPT, self.A_REFUSE, self.A_CONTINUE,
         self.A_FOLLOW, self.A_INVITE, self.A_DOUBLE, self.A_REDOUBLE,
         self.A_ALONE, self.A_TAKE_OVER) = range(base, base + len(SPECIAL_VERBS))
        self.A_CALL = base + len(SPECIAL_VERBS)
        self.A_GIVE = self.A_CALL + nc
        self.A_DEMAND = self.A_GIVE + nc
        self.num_actions = self.A_DEMAND + nc
        # the verb of every action id, for those that count actions by kind (statistics, observations)
        self.action_verbs = (("play",) * nc + ("discard",) * nc + ("bid",) * nk + ("trump",) * ns + SPECIAL_VERBS
                             + ("call",) * nc + ("give",) * nc + ("demand",) * nc)
        self.action_texts = tuple(self._action_text(a) for a in range(self.num_actions))  # the notation of each id

    def action_str(self, a: int) -> str:
        """The notation of an action id: `play <card>`, `discard <card>`, `bid <contract>`, `trump <suit>`, `pass`,
        `demand <card>`, `give <card>`…; InvalidActionError for an id that is none."""
        if type(a) is not int or not 0 <= a < self.num_actions:
            a = action_id(a)
            if not 0 <= a < self.num_actions:
                raise InvalidActionError(f"no action {a} (ids are 0 to {self.num_actions - 1})")
        return self.action_texts[a]

    def _action_text(self, a: int) -> str:
        """The notation of a valid action id, worked out once per id when the actions are numbered."""
        nc = self.deck.size
        if a < nc:
            return "play " + self.deck.name(a)
        if a >= self.A_DEMAND:
            return "demand " + self.deck.name(a - self.A_DEMAND)
        if a < self.A_BID:
            return "discard " + self.deck.name(a - nc)
        if a < self.A_TRUMP:
            return "bid " + self.contracts[a - self.A_BID].name
        if a < self.A_PASS:
            return "trump " + self.deck.suits[a - self.A_TRUMP].name
        if a >= self.A_GIVE:
            return "give " + self.deck.name(a - self.A_GIVE)
        if a >= self.A_CALL:
            return "call " + self.deck.name(a - self.A_CALL)
        return SPECIAL_VERBS[a - self.A_PASS]

    def parse_action(self, text: str) -> int:
        """The id of an action written in notation; InvalidActionError quoting the text otherwise."""
        words = text.strip().split()
        if not words:
            raise InvalidActionError("empty action")
        verb = words[0].lower()
        simple = SPECIAL_VERBS
        if verb in simple and len(words) == 1:
            return self.A_PASS + simple.index(verb)
        if len(words) == 2:
            arg = words[1]
            if verb == "play":
                return self.deck.parse(arg)
            if verb == "discard":
                return self.A_DISCARD + self.deck.parse(arg)
            if verb == "demand":
                return self.A_DEMAND + self.deck.parse(arg)
            if verb == "call":
                return self.A_CALL + self.deck.parse(arg)
            if verb == "give":
                return self.A_GIVE + self.deck.parse(arg)
            if verb == "bid":
                c = self.contract_by_name.get(arg) or {k.lower(): v for k, v in self.contract_by_name.items()}.get(
                    arg.lower())
                if c is None:
                    raise InvalidActionError(f"unknown contract '{arg}'{did_you_mean(arg, self.contract_by_name)}")
                return self.A_BID + c.index
            if verb == "trump":
                s = self.deck.suit_by_name.get(arg) or {k.lower(): v for k, v in self.deck.suit_by_name.items()}.get(
                    arg.lower())
                if s is None:
                    raise InvalidActionError(f"unknown suit '{arg}'{did_you_mean(arg, self.deck.suit_by_name)}")
                return self.A_TRUMP + s.index
        verbs = ("play", "discard", "bid", "trump", "call", "give", "demand") + simple
        if verb not in verbs:
            raise InvalidActionError(f"unknown action '{text.strip()}'{did_you_mean(verb, verbs)}")
        want = "no argument" if verb in simple else "one argument"
        raise InvalidActionError(f"'{verb}' takes {want}: '{text.strip()}'")
