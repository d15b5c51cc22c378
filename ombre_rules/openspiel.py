"""Every variant as an OpenSpiel game (extra `openspiel`). Importing this module registers the games:

    import pyspiel, ombre_rules.openspiel
    pyspiel.load_game("ombre_rules", {"variant": "house.yaml(option=choice)"})   # any variant string or file
    pyspiel.load_game("ombre_rules_<id>(option=choice)")                          # a built-in by its short name

`ombre_rules` takes `variant` (a built-in id, alias or file, with options in parentheses when given as a
dict) and `options` (`key:value;key:value`, the form that survives OpenSpiel's game strings); each built-in
`ombre_rules_<id>` (dashes as underscores) takes its own options as parameters. Both take `dealer`, `pool`
(counters in the pool before the deal), `seed`, `utility_bound` and `session`: the values a variant with
`session.carry` carries into the deal, as `name:value;name:value` (a list as its numbers separated by spaces, a
suit by its name, `true`/`false`; the others keep their start values).

The deal is chance: with `seed=-1` (the default) the first C moves are chance nodes, one per card, dealing the
deck in order (the position of each card decides its seat, as the variant's packets do, the last ones its
talon); each remaining card has the same probability, so every deal is as likely as under `State(rules,
seed=…)`. With `seed >= 0` every game starts from that seeded deal and has no chance node.

Utilities: the seats' payments (pool changes included, so the game is general-sum). Payments are computed by
the variant's own rules, which give no closed bound: `min_utility`/`max_utility` are -B and B with B four
times the largest payment met in 1,000 seeded random deals (at the game's dealer and pool), or
`utility_bound` when that is given (> 0). `max_game_length` is `obs.max_actions`.

Serialisation is text, never a pickle (`openspiel_text.py`, which this module installs in `pyspiel`);
`apply_action` takes whole-number ids only, and a refused action changes nothing.

Observations (`obs.py`): the tensors are the seat's encoding; `information_state_string` is the seat's whole
view with its list of actions (perfect recall), `observation_string` the view without that list. Both hold the
session's values (the view's `session`, public to every seat; the tensors' `session` slice).
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from .cards import bits
from .checks import action_id
from .engine import State
from .engine.carry import as_json, start_values
from .engine.portable import rules_for
from .errors import ArgumentError, IllegalActionError, InvalidActionError, OmbreError
from .lang import types as T
from .obs import layout, max_actions
from .openspiel_text import install, read_state, state_text
from .ruleset import Ruleset
from .spec.resolve import builtin_index, fmt_value, parse_variant_string, resolve

GENERIC = "ombre_rules"
PREFIX = "ombre_rules_"
_BOUND_DEALS = 1000
_DONE = 5
_ID_END = 2**63  # OpenSpiel's action ids are 64-bit


def short_name(variant_id: str) -> str:
    """The registered name of a built-in variant."""
    return PREFIX + variant_id.replace("-", "_")


def _typed(choices: list, value):
    """An option value as an OpenSpiel parameter: a bool or int when every choice is one, else its text."""
    for t in (bool, int):
        if all(type(c) is t for c in choices):
            return t(value)
    return fmt_value(value)


def _own_param(choices: list) -> bool:
    """Whether an option can be a parameter of its own: OpenSpiel's game strings read a value that starts with
    a digit or a sign as a number, so an option with such a choice among words goes in `options` instead."""
    kinds = {type(c) for c in choices}
    if kinds in ({bool}, {int}):
        return True
    return all(isinstance(c, str) and c[:1].isalpha() and c.lower() not in ("true", "false") for c in choices)


def _options_text(opts: dict) -> str:
    return ";".join(f"{k}:{fmt_value(v)}" for k, v in opts.items())


def _options_parse(text: str) -> dict[str, str]:
    out = {}
    for part in text.split(";"):
        if part.strip():
            k, _, v = part.partition(":")
            out[k.strip()] = v.strip()
    return out


_LIST = T.list_of(T.INT)
_UNSAFE = set(",;()=")  # characters a value in a game string cannot hold


def session_parse(rules: Ruleset, text: str) -> dict[str, Any] | None:
    """The `session` parameter (`name:value;name:value`) as values by name (None when empty)."""
    carry = rules.carry
    out: dict = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        name, _, value = (x.strip() for x in part.partition(":"))
        if carry is None or name not in carry.names:
            out[name] = value  # refused with its reason by the state
            continue
        t = carry.types[carry.index(name)]
        try:
            out[name] = ([int(x) for x in value.split()] if t == _LIST else int(value) if t == T.INT
                         else {"true": True, "false": False}.get(value, value) if t == T.BOOL
                         else None if t == T.SUIT and value in ("", "none") else value)
        except ValueError:
            raise OmbreError(f"session value '{name}' wants numbers, not '{value}'") from None
    return out or None


def session_text(rules: Ruleset, values: tuple[Any, ...]) -> str:
    """The `session` parameter of carried values: those not at their start, in the form `session_parse` reads."""
    carry = rules.carry
    if carry is None:
        return ""
    parts = []
    for (name, v), start in zip(carry.to_json(values).items(), carry.to_json(carry.start).values(), strict=True):
        if v == start:
            continue
        text = " ".join(map(str, v)) if isinstance(v, list) else "none" if v is None \
            else str(v).lower() if isinstance(v, bool) else str(v)
        if _UNSAFE & set(text) or text != text.strip():
            raise OmbreError(f"session value '{name}' cannot be a game parameter: {text!r}")
        parts.append(f"{name}:{text}")
    return ";".join(parts)


class _Config:
    """What every state of one game shares: the ruleset, its encoding, the deal settings."""

    def __init__(self, variant: str, dealer: int, pool: int, seed: int, bound: int, carry: tuple = ()) -> None:
        self.rules = r = rules_for(variant)
        self.layout = layout(r)
        self.dealer, self.pool, self.seed = dealer, pool, seed
        self.carry = carry  # the values carried into every deal (`session.carry`)
        masks, _lists, talon = r.deal(list(range(r.deck.size)), dealer)
        self.owner = [-1] * r.deck.size  # the seat a position of the deck order goes to (-1: the talon)
        for s, m in enumerate(masks):
            for pos in range(r.deck.size):
                if m >> pos & 1:
                    self.owner[pos] = s
        self.bound = bound if bound > 0 else payment_bound(r, dealer, pool, self.carry)
        self._observers: dict[bool, Observer] = {}

    def observer(self, recall: bool) -> Observer:
        """An observer kept for the Python-side observation methods of the states."""
        obs = self._observers.get(recall)
        if obs is None:
            obs = self._observers[recall] = Observer(self, recall)
        return obs

    def engine(self, order: list[int]) -> State:
        """The engine state of a deck order."""
        masks, _lists, talon = self.rules.deal(order, self.dealer)
        return State(self.rules, dealer=self.dealer, pool=self.pool, hands=masks, talon=talon, session=self.carry)


_CONFIGS: dict[str, _Config] = {}


def payment_bound(rules: Ruleset, dealer: int = 0, pool: int = 0, carry: tuple[Any, ...] | None = None) -> int:
    """Four times the largest payment (in absolute value) in 1,000 seeded random deals, at least 1."""
    rng = random.Random(0)
    top = 1
    for i in range(_BOUND_DEALS):
        s = State(rules, seed=i, dealer=dealer, pool=pool, session=carry)
        s.random_playout(rng.random)
        assert s.res is not None  # played to its end
        top = max(top, max(abs(p) for p in s.res.payments))
    return 4 * top


def _game_type(name: str, long_name: str, params: dict, players: tuple[int, int]) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=name, long_name=long_name, dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        min_num_players=players[0], max_num_players=players[1],
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=params)


_PLAYERS = (2, 10)  # the range of the GameType; each game's own count comes from its variant and options
_COMMON = {"dealer": 0, "pool": 0, "seed": -1, "utility_bound": 0}


_SETTINGS: dict[tuple, tuple[dict, str]] = {}


def _settings(builtin: str | None, params: dict) -> tuple[dict, str]:
    """The parameters a game is shown with (options in canonical form) and the key of its _Config; made
    once per distinct set of parameters (a deserialised state loads its game again)."""
    memo = (builtin, tuple(sorted((k, type(v).__name__, str(v)) for k, v in params.items())))
    got = _SETTINGS.get(memo)
    if got is not None:
        return got
    if builtin is None:
        unknown = sorted(set(params) - set(_TYPES[GENERIC].parameter_specification))
        if unknown:
            raise OmbreError(f"unknown parameter '{unknown[0]}' of {GENERIC} (parameters: "
                             f"{', '.join(sorted(_TYPES[GENERIC].parameter_specification))})")
        name, opts = parse_variant_string(_text(params, "variant", _TYPES[GENERIC].parameter_specification["variant"]))
    else:
        name = builtin
        opts = {k: fmt_value(v) for k, v in params.items() if k not in _COMMON and k not in ("options", "session")}
    opts.update(_options_parse(_text(params, "options")))
    spec = resolve(name, opts)
    canonical = spec.variant
    changed = {k: v for k, v in spec.options.items() if v != spec.defaults[k]}
    dealer, pool, seed, bound = (_whole(params, k, d) for k, d in _COMMON.items())
    session = _text(params, "session")
    own: dict[str, Any]
    if builtin is None:
        own = {"variant": parse_variant_string(canonical)[0], "options": _options_text(changed)}
    else:
        own = {k: _typed(spec.choices[k], v) for k, v in spec.options.items() if _own_param(spec.choices[k])}
        own["options"] = _options_text({k: v for k, v in changed.items() if k not in own})
    rules = rules_for(canonical)
    _check_settings(rules, dealer, pool, seed, bound)
    carry = start_values(rules, session_parse(rules, session))
    session = session_text(rules, carry)
    own.update(dealer=dealer, pool=pool, seed=seed, utility_bound=bound, **({"session": session} if session else {}))
    key = f"{GENERIC if builtin is None else short_name(builtin)}|{canonical}|{dealer}|{pool}|{seed}|{bound}" \
          f"|{session}"
    if key not in _CONFIGS:
        _CONFIGS[key] = _Config(canonical, dealer, pool, seed, bound, carry)
    _SETTINGS[memo] = own, key
    return own, key


def _whole(params: dict, key: str, default: int) -> int:
    """A whole-number parameter (OpenSpiel checks the types of a game string's; a dict given in Python is
    checked here): never a bool, a float or text."""
    v = params.get(key, default)
    if type(v) is not int:
        raise OmbreError(f"parameter '{key}' must be a whole number, not {v!r}"[:120])
    return v


def _text(params: dict, key: str, default: str = "") -> str:
    v = params.get(key, default)
    if not isinstance(v, str):
        raise OmbreError(f"parameter '{key}' must be text, not {v!r}"[:120])
    return v


def _check_settings(rules: Ruleset, dealer: int, pool: int, seed: int, bound: int) -> None:
    """The deal settings of a game, each in its range, before anything is dealt."""
    if not 0 <= dealer < rules.players:
        raise OmbreError(f"parameter 'dealer' must be a seat of '{rules.variant}' from 0 to {rules.players - 1}, "
                         f"not {dealer}")
    if pool < 0:
        raise OmbreError(f"parameter 'pool' (the counters in the pool) must be at least 0, not {pool}")
    if seed < -1:
        raise OmbreError(f"parameter 'seed' must be -1 (the deal is chance) or a seed from 0, not {seed}")
    if bound < 0:
        raise OmbreError(f"parameter 'utility_bound' must be 0 (worked out from {_BOUND_DEALS} deals) or more, "
                         f"not {bound}")


class OmbreGame(pyspiel.Game):
    """One variant with its options, dealer, pool and deal settings."""

    builtin: str | None = None  # the id of a built-in variant, in the class registered under its short name

    def __init__(self, params: dict | None = None) -> None:
        own, key = _settings(self.builtin, dict(params or {}))
        self.config = cfg = _CONFIGS[key]
        self.key = key
        r = cfg.rules
        info = pyspiel.GameInfo(num_distinct_actions=r.num_actions, max_chance_outcomes=r.deck.size,
                                num_players=r.players, min_utility=-float(cfg.bound),
                                max_utility=float(cfg.bound), utility_sum=None,
                                max_game_length=max_actions(r))
        super().__init__(_TYPES[key.split('|')[0]], info, own)

    @property
    def rules(self) -> Ruleset:
        return self.config.rules

    def new_initial_state(self) -> OmbreState:
        return OmbreState(self)

    def state_from(self, engine: State) -> OmbreState:
        """The OpenSpiel state of an engine state of this variant: its deal (as chance outcomes, unless the
        game starts from a seed) and its actions, applied in order."""
        cfg = self.config
        if not isinstance(engine, State) or engine.rules.variant != cfg.rules.variant:
            raise OmbreError(f"state_from takes an engine state of '{cfg.rules.variant}', not {engine!r}"[:160])
        if engine.dealer != cfg.dealer or engine.pool_before != cfg.pool:
            raise OmbreError(f"the state has dealer {engine.dealer} and pool {engine.pool_before}, this game dealer "
                             f"{cfg.dealer} and pool {cfg.pool}")
        if engine.carry != cfg.carry:
            raise ValueError(f"the state carries {as_json(cfg.rules, engine.carry)} into its deal, this game "
                             f"{as_json(cfg.rules, cfg.carry)} (its session parameter)")
        st = OmbreState(self)
        if cfg.seed >= 0:
            st._s = State(cfg.rules, dealer=engine.dealer, pool=engine.pool_before, hands=list(engine.deal_hands),
                          talon=list(engine.deal_talon), session=cfg.carry)
        else:
            for c in deal_order(cfg, engine):
                st.apply_action(c)
        for a in engine.history:
            st.apply_action(a)
        return st

    def deserialize_state(self, text: str) -> OmbreState:
        """The state `state.serialize()` wrote (text, read strictly; see `openspiel_text`)."""
        return read_state(self, text)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.config, recall)


def deal_order(cfg: _Config, engine: State) -> list[int]:
    """A deck order that deals the engine state's hands and talon."""
    todo = [bits(h) for h in engine.deal_hands]
    talon = list(engine.deal_talon)
    order = []
    for owner in cfg.owner:
        order.append(todo[owner].pop(0) if owner >= 0 else talon.pop(0))
    return order


class OmbreState(pyspiel.State):
    """A deal in OpenSpiel's terms: chance nodes while the deck is dealt, then the engine's decisions."""

    def __init__(self, game: OmbreGame) -> None:
        super().__init__(game)
        self._key = game.key
        cfg = game.config
        self._deal: list[int] = []
        self._left = list(range(cfg.rules.deck.size)) if cfg.seed < 0 else []  # the cards still to deal
        self._s: State | None = State(cfg.rules, seed=cfg.seed, dealer=cfg.dealer, pool=cfg.pool,
                                      session=cfg.carry) if cfg.seed >= 0 else None

    @property
    def engine(self) -> State | None:
        """The engine state (None while the cards are being dealt)."""
        return self._s

    @property
    def dealt(self) -> list[int]:
        """The cards dealt by chance so far, in order (none in a game that starts from a seed)."""
        return self._deal

    def apply_action(self, action: Any) -> None:
        """Apply an action (an id: a whole number, never a bool, a float or text); an illegal one changes
        nothing."""
        a = action_id(action)
        if not 0 <= a < _ID_END:  # no such value is an action: refused with the message a bad id gets
            self._apply_action(a)
        super().apply_action(a)

    def serialize(self) -> str:
        """The state as text (see `openspiel_text`): `game.deserialize_state` reads it back."""
        return state_text(self)

    def __reduce__(self) -> tuple:
        """Pickled as its game string and its text, never as OpenSpiel's pickled `__dict__`."""
        return _restore, (str(self.get_game()), state_text(self))

    def current_player(self) -> int:
        s = self._s
        if s is None:
            return pyspiel.PlayerId.CHANCE
        if s.phase == _DONE:
            return pyspiel.PlayerId.TERMINAL
        return s.to_move

    def is_chance_node(self) -> bool:
        return self._s is None

    def _legal_actions(self, player: int) -> list[int]:
        assert self._s is not None  # not at the chance node
        return sorted(self._s.legal_actions())

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions (chance outcomes at a chance node), answered in Python without a round trip
        through OpenSpiel's C++ State; empty for a seat not to move."""
        s = self._s
        if s is None:
            return self._left[:] if player is None or player == pyspiel.PlayerId.CHANCE else []
        if s.phase == _DONE or (player is not None and player != s.to_move):
            return []
        return sorted(s.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self._left
        if self._s is not None:
            raise OmbreError("no chance outcomes: " + ("the deal is over" if self._s.phase == _DONE else
                                                       f"the cards are dealt and seat {self._s.to_move} is to move"))
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        s = self._s
        if s is not None:
            s.apply(action)
            return
        if action not in self._left:
            deck = _CONFIGS[self._key].rules.deck
            if 0 <= action < deck.size:
                raise IllegalActionError(f"card {deck.name(action)} is dealt already")
            raise IllegalActionError(f"no card {action} to deal (cards are 0 to {deck.size - 1})")
        self._deal.append(action)
        self._left.remove(action)
        cfg = _CONFIGS[self._key]
        if len(self._deal) == cfg.rules.deck.size:
            self._s = cfg.engine(self._deal)

    # the observations, answered in Python (OpenSpiel's C++ path makes a fresh state to size every tensor)
    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return self._tensor(True, player)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return self._tensor(False, player)

    def information_state_string(self, player: int | None = None) -> str:
        return _CONFIGS[self._key].observer(True).string_from(self, self._seat(player))

    def observation_string(self, player: int | None = None) -> str:
        return _CONFIGS[self._key].observer(False).string_from(self, self._seat(player))

    def _seat(self, player: int | None) -> int:
        p = self.current_player() if player is None else player
        n = _CONFIGS[self._key].rules.players
        if type(p) is not int or not 0 <= p < n:
            raise ArgumentError(f"no seat {p!r} to observe (seats are 0 to {n - 1})"[:120])
        return p

    def _tensor(self, recall: bool, player: int | None) -> list[float]:
        obs = _CONFIGS[self._key].observer(recall)
        obs.set_from(self, self._seat(player))
        return obs.tensor.tolist()

    def _action_to_string(self, player: int, action: int) -> str:
        cfg = _CONFIGS[self._key]
        r = cfg.rules
        if player == pyspiel.PlayerId.CHANCE:
            if not 0 <= action < r.deck.size:
                raise InvalidActionError(f"no card {action} (cards are 0 to {r.deck.size - 1})")
            if self._s is not None:
                return f"deal {r.deck.name(action)}"
            owner = cfg.owner[len(self._deal)]
            return f"deal {r.deck.name(action)} to " + (f"seat {owner}" if owner >= 0 else "the talon")
        return r.action_str(action)

    def is_terminal(self) -> bool:
        return self._s is not None and self._s.phase == _DONE

    def returns(self) -> list[float]:
        s = self._s
        if s is None or s.result is None:
            return [0.0] * _CONFIGS[self._key].rules.players
        return [float(p) for p in s.result.payments]

    def __str__(self) -> str:
        if self._s is None:
            r = _CONFIGS[self._key].rules
            return " ".join([f"{r.variant} | dealing"] + [r.deck.name(c) for c in self._deal])
        return self._s.to_text()


class Observer:
    """OpenSpiel's observer protocol over `obs.py`: `tensor`, `dict`, `set_from`, `string_from`."""

    def __init__(self, cfg: _Config, perfect_recall: bool) -> None:
        self.cfg = cfg
        self.recall = perfect_recall
        lay = cfg.layout
        self.tensor = np.zeros(lay.size, np.float32)
        self.dict = {sl.name: self.tensor[sl.offset:sl.offset + sl.size].reshape(sl.shape) for sl in lay.slices}

    def set_from(self, state: OmbreState, player: int) -> None:
        self.tensor.fill(0)
        ones, vals = sparse(self.cfg, state, player)
        self.tensor[ones] = 1.0
        for i, v in vals:
            self.tensor[i] = v

    def string_from(self, state: OmbreState, player: int) -> str:
        s = state._s
        if s is None:
            names = [self.cfg.rules.deck.name(c) for i, c in enumerate(state._deal) if self.cfg.owner[i] == player]
            return f"seat {player} | dealer {self.cfg.dealer} | dealt {' '.join(names)}"
        return json.dumps(s.view(player, self.recall), sort_keys=True, separators=(",", ":"))


def sparse(cfg: _Config, state: OmbreState, player: int) -> tuple[list[int], list[tuple[int, float]]]:
    """The encoding of a seat's view of an OpenSpiel state, dealing included."""
    s = state._s
    if s is None:
        hand = 0
        for i, c in enumerate(state._deal):
            if cfg.owner[i] == player:
                hand |= 1 << c
        return cfg.layout.dealing(player, cfg.dealer, hand)
    return cfg.layout.sparse(s, player)


def resampler(rng: random.Random | None = None) -> Callable[[OmbreState, int], OmbreState]:
    """A resampling function for OpenSpiel's ISMCTS bot (`bot.set_resampler(...)`): a state dealt anew
    consistently with the seat's view, by the same sampler the `pimc` bot uses (the state itself when none is
    found, or while dealing)."""
    from .bots.sample import Knowledge, sample

    rng = rng or random.Random(0)

    def resample(state: OmbreState, player: int) -> OmbreState:
        s = state._s
        if s is None:
            return state.clone()
        world = sample(Knowledge(s.rules, s.view(player)), rng)
        if world is None:
            return state.clone()
        return state.get_game().state_from(world)

    return resample


def _register() -> None:
    builtins = sorted(set(builtin_index().values()))
    specs = [resolve(p) for p in builtins]
    generic = {"variant": specs[0].data["id"] if specs else "", "options": "", **_COMMON, "session": ""}
    _TYPES[GENERIC] = _game_type(GENERIC, "ombre_rules: any variant", generic, _PLAYERS)
    pyspiel.register_game(_TYPES[GENERIC], OmbreGame)
    for spec in specs:
        vid = spec.data["id"]
        params = {k: _typed(spec.choices[k], v) for k, v in spec.defaults.items() if _own_param(spec.choices[k])}
        params.update(_COMMON, options="", **({"session": ""} if (spec.data.get("session") or {}).get("carry")
                                               else {}))
        name = short_name(vid)
        _TYPES[name] = _game_type(name, f"ombre_rules: {spec.data.get('title', vid)}", params, _PLAYERS)
        pyspiel.register_game(_TYPES[name], type(f"OmbreGame_{name}", (OmbreGame,), {"builtin": vid}))


def _restore(game: str, text: str) -> OmbreState:
    """A pickled state: its game loaded from the game string, its text read as `deserialize_state` reads it."""
    loaded = pyspiel.load_game(game)
    if not isinstance(loaded, OmbreGame):
        raise OmbreError(f"not an ombre_rules game: {game[:80]!r}")
    return read_state(loaded, text)


_TYPES: dict[str, pyspiel.GameType] = {}
_register()
install()
