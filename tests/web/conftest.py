"""Browser tests: the app served by uvicorn on a free loopback port in a thread, driven by Debian's Chromium."""
from __future__ import annotations

import os
import socket
import threading
import time

import pytest

CHROMIUM = "/usr/bin/chromium"
ARTEFACTS = os.path.join(os.path.dirname(__file__), "..", "..", "test-artefacts")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """uvicorn serving the app in a thread."""

    def __init__(self, data: str, variants: str | None = None) -> None:
        import uvicorn

        from ombre_rules.web.app import create_app

        self.app = create_app(data, variants, workers=2, processes=False)
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    ws="websockets-sansio"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if time.time() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("variants")
    (folder / "house.yaml").write_text("id: house\nextends: ombre\ntitle: A house Ombre\ncontracts:\n"
                                       "  solo: {value: 20}\n", encoding="utf-8")
    with Server(str(tmp_path_factory.mktemp("data")), str(folder)) as s:
        yield s


def shot(page, name: str, full: bool = True) -> None:
    """Save a screenshot under test-artefacts/ (gitignored) to look at: the whole page, or (`full=False`) what
    the screen shows."""
    os.makedirs(ARTEFACTS, exist_ok=True)
    page.screenshot(path=os.path.join(ARTEFACTS, f"{name}.png"), full_page=full)
