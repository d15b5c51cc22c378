"""The phases of a deal, by name: State.phase is one of these ints (compare it with the names, never with a
number), and PHASE_NAMES[phase] the name shown to users. Each phase is owned by one stage module."""

AUCTION, TRUMP, EXCHANGE, PLAY, CONSENT, DONE, CALL, GIVE, DECLARE, SURRENDER = range(10)
# XPLAY: play while an excuse card is still to come; GIVEBACK: a card given back for a demanded one
XPLAY, LAYAWAY, DEMAND, GIVEBACK, RAISE = range(10, 15)
# DEFEND: the defenders decide whether they play (engine/defend.py); DOUBLE: doubling (engine/double.py);
# ANNOUNCE: the declarer names a higher contract after the exchange (engine/announce.py); ALONE: the declarer
# goes alone or plays with his partners (engine/alone.py); TAKEOVER: after a surrender, other seats may take the
# game over (engine/surrender.py)
DEFEND, DOUBLE, ANNOUNCE, ALONE, TAKEOVER = 15, 16, 17, 18, 19
PHASE_NAMES = ("auction", "trump", "exchange", "play", "consent", "done", "call", "give", "declare", "surrender",
               "play", "lay-away", "demand", "give", "raise", "defend", "double", "announce", "alone", "takeover")
