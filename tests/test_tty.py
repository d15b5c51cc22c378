"""The terminal table of `ombre play --human`, driven through a pseudo-terminal as a person would use it."""
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ombre_rules.tty import parse_choice

ROOT = Path(__file__).resolve().parent.parent
PROMPT = re.compile(r"seat (\d)> $")


class Terminal:
    """`ombre ARGS` with its standard input and output on a pseudo-terminal."""

    def __init__(self, *args: str) -> None:
        self.master, slave = os.openpty()
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen([sys.executable, "-m", "ombre_rules", *args], stdin=slave, stdout=slave,
                                     stderr=slave, env=env, cwd=ROOT)
        os.close(slave)
        self.text = ""

    def read_until(self, pattern: re.Pattern, timeout: float = 20.0) -> str:
        """Read until the output so far ends with `pattern`; the output since the last call."""
        start = len(self.text)
        end = time.monotonic() + timeout
        while not pattern.search(self.text[start:]):
            left = end - time.monotonic()
            assert left > 0, f"no {pattern.pattern!r} in {self.text[start:][-600:]!r}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    chunk = b""
                if not chunk:
                    break
                self.text += chunk.decode("utf-8").replace("\r\n", "\n")
        return self.text[start:]

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        rc = self.proc.wait(timeout=20)
        os.close(self.master)
        return rc


@pytest.fixture
def term():
    made = []

    def start(*args):
        t = Terminal(*args)
        made.append(t)
        return t

    yield start
    for t in made:
        if t.proc.poll() is None:
            t.proc.kill()
            t.proc.wait()


def _last_legal(screen: str) -> list[str]:
    line = [x for x in screen.splitlines() if x.startswith("legal: ")][-1]
    return re.findall(r"\d+\) ([^ ].*?)(?=\s{2}\d+\)|$)", line[len("legal: "):])


def test_help_number_prefix_and_quit(term):
    t = term("play", "ombre", "--seed", "7", "--human", "1")
    screen = t.read_until(PROMPT)
    assert "-- seat 1 (you), auction --" in screen
    assert "hand: 4S 5S 7S 2H 6H 7H KH 5D KD" in screen
    assert "legal: 1) pass  2) bid entrada  3) bid vuelta  4) bid solo" in screen
    for word in ("help", "?"):
        t.send(word)
        out = t.read_until(PROMPT)
        assert "its number (1, 2, ...)" in out and "quit        leave the table" in out
        assert "legal: 1) pass  2) bid entrada  3) bid vuelta  4) bid solo" in out
    t.send("b")
    assert "'b' could be: bid entrada, bid vuelta, bid solo" in t.read_until(PROMPT)
    t.send("9")
    assert "no action numbered 9 (1 to 4)" in t.read_until(PROMPT)
    t.send("ent")  # a unique prefix of the argument
    out = t.read_until(PROMPT)
    assert "seat 1 (forehand): bid entrada" in out and "seat 2: bid solo" in out
    assert "legal: 1) pass  2) hold" in out
    t.send("quit")
    assert "you left the table; the deal is abandoned" in t.read_until(re.compile(r"abandoned\n"))
    assert t.close() == 0


def test_a_whole_deal_by_numbers_shows_the_trick_and_the_tally(term):
    t = term("play", "ombre", "--seed", "1", "--human", "1", "--players", "greedy")
    saw_trick = saw_tally = False
    while True:
        screen = t.read_until(re.compile(r"(seat \d> $)|(payments: .*\n)"))
        if "payments:" in screen and not PROMPT.search(screen):
            break
        if "trick so far: " in screen:
            line = [x for x in screen.splitlines() if x.startswith("trick so far: ")][-1]
            assert re.fullmatch(r"trick so far: (seat \d( \(you\))? \w\w(, )?)+", line)
            saw_trick = True
        if "\ntricks: seat 0 " in "\n" + screen:
            saw_tally = True
            assert re.search(r"tricks: seat 0 \d, seat 1 \(you\) \d, seat 2 \d", screen)
        t.send("1")
    assert saw_trick and saw_tally
    assert re.search(r"outcome: \w+", screen)
    assert t.close() == 0


def test_a_session_ends_with_a_score_sheet(term):
    t = term("play", "ombre", "--seed", "7", "--human", "0", "--players", "greedy", "--deals", "2")
    while True:
        screen = t.read_until(re.compile(r"(seat \d> $)|(total .*\n)"))
        if "score sheet:" in t.text and re.search(r"total .*\n", screen):
            break
        t.send(_last_legal(screen)[-1].split()[-1])  # the last legal action, by its argument
    assert "=== deal 1 of 2: dealer seat 0, pool 0 ===" in t.text
    sheet = t.text[t.text.index("score sheet:"):].splitlines()
    assert sheet[1].split() == ["deal", "dealer", "contract", "declarer", "outcome", "seat", "0", "seat", "1",
                                "seat", "2", "pool"]
    rows = [r.split() for r in sheet[2:4]]
    assert [r[0] for r in rows] == ["1", "2"] and [r[1] for r in rows] == ["0", "1"]
    total = sheet[4].split()
    assert total[0] == "total"
    assert [int(x) for x in total[1:4]] == [sum(int(r[-4 + k]) for r in rows) for k in range(3)]
    # the second deal starts with the pool the first left
    pool_after_first = rows[0][-1]
    assert f"=== deal 2 of 2: dealer seat 1, pool {pool_after_first} ===" in t.text
    assert t.close() == 0


def test_end_of_input_leaves_cleanly(term):
    t = term("play", "ombre", "--seed", "7", "--human", "1")
    t.read_until(PROMPT)
    os.write(t.master, b"\x04")  # Ctrl-D
    assert "you left the table" in t.read_until(re.compile(r"abandoned\n"))
    assert t.close() == 0


@pytest.mark.parametrize("text,want", [
    ("2", 1), ("bid vuelta", 1), ("VUELTA", 1), ("vu", 1), ("  bid   solo ", 2), ("pass", 3), ("p", 3),
    ("0", "no action numbered 0 (1 to 4)"), ("x", "'x' is not one of the legal actions (type help or ?)"),
    ("bid", "'bid' could be: bid entrada, bid vuelta, bid solo"),
])
def test_parse_choice(text, want):
    assert parse_choice(text, ["bid entrada", "bid vuelta", "bid solo", "pass"]) == want


def test_parse_choice_cards():
    cards = ["play AS", "play 2S", "play AH"]
    assert parse_choice("as", cards) == 0
    assert parse_choice("a", cards) == "'a' could be: play AS, play AH"
    assert parse_choice("2", cards) == 1  # a number is the action's number
