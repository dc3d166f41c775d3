"""Take the screenshots of docs/web.md: each game's board in the page of `huerta serve`.

docs/web_finca.png      the Replay view of docs/finca_heuristic_game.json half-way (the game of
                        docs/finca.png)
docs/web_alpujarras.png the Play view: player_0 (clicking) against two heuristic agents, a
                        placement to choose, the legal farmlands highlighted
docs/web_mi_tierra.png  the Replay view of three heuristic players at round 8's placement (the
                        game of docs/mi_tierra.png), its notes of the hidden cards open

Run from the repository root: `.venv/bin/python scripts/web_screenshots.py`. It starts the
server on a free 127.0.0.1 port and drives Debian's Chromium (/usr/bin/chromium, or
$HUERTA_CHROMIUM) with Playwright. Every game is seeded, so the pictures only change when the
engine, the agents or the page do.
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import uvicorn
from playwright.sync_api import Page, sync_playwright

from huerta.agents.heuristics.mi_tierra import MiTierraHeuristic
from huerta.envs.core.records import GameRecord
from huerta.envs.core.view import PlayerView
from huerta.envs.mi_tierra import Stage, new_game
from huerta.web import bind, create_app

DOCS = Path(__file__).resolve().parent.parent / "docs"
CHROMIUM = os.environ.get("HUERTA_CHROMIUM", "/usr/bin/chromium")
VIEWPORT = {"width": 1680, "height": 1050}


def mi_tierra_record(folder: Path) -> tuple[Path, int]:
    """The game of docs/mi_tierra.png as a record, and the step where round 8's placement
    starts."""
    state = new_game(3, seed=14)
    agents = [MiTierraHeuristic(seed=p) for p in range(3)]
    record = GameRecord(game="mi_tierra", num_players=3, seed=14)
    step = None
    while not state.is_terminal:
        if step is None and state.round == 8 and state.stage == Stage.PLACEMENT:
            step = len(record.actions)
        p = state.current_player
        obs = {"observation": state.observe(p), "action_mask": state.legal_mask().astype(np.int8)}
        action = agents[p].act(obs, PlayerView(state, p))
        state.apply(action)
        record.actions.append(action)
    record.final_scores = state.scores()
    path = folder / "mi_tierra_heuristic_game.json"
    record.save(path)
    return path, step


def show_replay(page: Page, path: Path, step: int) -> None:
    page.click("#tab-replay")
    page.set_input_files("#replay-file", str(path))
    page.wait_for_selector("#replay-board[data-step='0']")
    page.evaluate("(k) => { const s = document.getElementById('replay-slider'); s.value = k; "
                  "s.dispatchEvent(new Event('input')); }", step)
    page.wait_for_selector(f"#replay-board[data-step='{step}']")
    page.click("#message-close")
    page.evaluate("window.scrollTo(0, 0)")
    page.locator(f"#replay-moves li[data-step='{step}']").scroll_into_view_if_needed()


def play_alpujarras(page: Page) -> None:
    """Play player_0 against two heuristic agents up to a placement (the farmlands lit)."""
    page.click("#tab-play")
    page.select_option("#play-game", "alpujarras")
    page.select_option("#play-players", "3")
    for field in page.locator("#play-agents input").all():
        field.fill("heuristic")
    page.fill("#play-seed", "4")
    page.select_option("#play-pace", "0")
    page.click("#play-start")
    while True:
        page.wait_for_selector("#play-board[data-status='your_turn']")
        step = int(page.get_attribute("#play-board", "data-step"))
        targets = [t for t in page.locator("#play-actions button").evaluate_all(
            "buttons => buttons.map(b => b.dataset.target)") if t]
        if step >= 40 and any(t.startswith("farmland:") for t in targets):
            return
        texts = page.locator("#play-actions button").all_inner_texts()
        spaces = sorted((t for t in targets if t.startswith("space:")),
                        key=lambda t: int(t.split(":")[1]))
        if spaces:
            target = spaces[min(2, len(spaces) - 1)]
            page.locator(f'#play-board [data-target="{target}"]').first.click()
        elif any(t.startswith("farmland:") for t in targets):
            page.locator(f'#play-board [data-target="{targets[0]}"].legal').first.click()
        elif "end the turn" in texts and len(texts) <= 2:
            page.locator("#play-actions button", has_text="end the turn").click()
        else:
            page.locator("#play-actions button").first.click()
        page.wait_for_function(
            f"document.querySelector('#play-board').dataset.step !== '{step}'")


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="huerta-web-"))
    sock = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(create_app(folder / "runs"), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    finca = DOCS / "finca_heuristic_game.json"
    finca_steps = len(GameRecord.load(finca).actions)
    mi_tierra, mi_tierra_step = mi_tierra_record(folder)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport=VIEWPORT)
            page.goto(f"http://127.0.0.1:{sock.getsockname()[1]}/")
            page.wait_for_selector("body[data-ready=true]")
            show_replay(page, finca, finca_steps // 2)
            page.screenshot(path=DOCS / "web_finca.png")
            show_replay(page, mi_tierra, mi_tierra_step)
            page.click("#replay-hidden summary")  # what the players could not see
            page.screenshot(path=DOCS / "web_mi_tierra.png")
            play_alpujarras(page)
            page.mouse.move(5, 5)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=DOCS / "web_alpujarras.png")
            browser.close()
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    print(f"wrote web_finca.png, web_alpujarras.png and web_mi_tierra.png in {DOCS}")


if __name__ == "__main__":
    main()
