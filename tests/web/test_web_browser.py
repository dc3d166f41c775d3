"""The page in a real headless browser (Chromium through Playwright): a record is loaded and
stepped through, a whole game is played by clicking on the board, an illegal click is refused
with a visible message and nothing changes, bad uploads and settings show the server's reason,
the results open a tournament's game, and every game's board is drawn in colour."""

from __future__ import annotations

import io
import json

import pytest
from game_cases import middle_count
from PIL import Image

from huerta.envs.core.records import GameRecord, replay
from huerta.envs.core.registry import game_choices, resolve_game
from huerta.web import boards

SETTLED = ("your_turn", "over", "stopped", "failed")


def step_of(page, board: str = "#replay-board") -> int:
    return int(page.get_attribute(board, "data-step"))


def wait_step(page, step: int, board: str = "#replay-board") -> None:
    page.wait_for_function(f"document.querySelector('{board}').dataset.step === '{step}'",
                           timeout=60000)


def open_record(page, path) -> None:
    page.click("#tab-replay")
    page.set_input_files("#replay-file", str(path))
    page.wait_for_selector("#message.note")
    wait_step(page, 0)


def message(page) -> str:
    page.wait_for_selector("#message.error", timeout=60000)
    return page.inner_text("#message-text")


def start_game(page, game: str, players: int | None = None, agents=("random",), seed=7,
               seat: int = 0) -> None:
    page.click("#tab-play")
    if page.is_visible("#play-new"):
        page.click("#play-new")
    page.select_option("#play-game", game)
    if players is not None:
        page.select_option("#play-players", str(players))
    page.select_option("#play-seat", str(seat))
    for k, field in enumerate(page.locator("#play-agents input").all()):
        field.fill(agents[k % len(agents)])
    page.fill("#play-seed", str(seed))
    page.select_option("#play-pace", "0")
    page.click("#play-start")
    settle(page)


def settle(page) -> str:
    """Wait until the human is to move or the game is done; its status."""
    return page.wait_for_function(
        """(settled) => {
            const status = document.querySelector('#play-board')?.dataset.status;
            return settled.includes(status) && status;
        }""", arg=list(SETTLED), timeout=60000).json_value()


def click_and_wait(page, locator) -> None:
    """Click a move and wait for the game to move on."""
    step = step_of(page, "#play-board")
    locator.click()
    page.wait_for_function(
        f"document.querySelector('#play-board').dataset.step !== '{step}'", timeout=60000)


def legal_targets(page) -> list[str]:
    """The board targets of the legal moves the page lists, in the list's order."""
    return [t for t in page.locator("#play-actions button").evaluate_all(
        "buttons => buttons.map(b => b.dataset.target)") if t]


# --- replay ---------------------------------------------------------------------------------------
def test_a_record_is_loaded_and_stepped_through(page, records):
    record = GameRecord.load(records["finca"])
    open_record(page, records["finca"])
    assert page.inner_text("#replay-title") == (
        f"finca, {record.num_players} players, seed {record.seed}")
    assert page.locator("#replay-moves li").count() == len(record.actions) + 1
    assert "The set-up" in page.inner_text("#replay-position")
    page.click("#replay-next")
    wait_step(page, 1)
    page.click("#replay-next")
    wait_step(page, 2)
    page.click("#replay-prev")
    wait_step(page, 1)
    assert page.locator("#replay-moves li.current").get_attribute("data-step") == "1"
    page.keyboard.press("ArrowRight")
    wait_step(page, 2)
    page.locator("#replay-moves li[data-step='40']").click()  # jump to a move
    wait_step(page, 40)
    state = replay(record, upto=40)
    assert page.locator("#replay-board svg text").first.text_content() == boards.state_json(
        "finca", state, None)["title"]
    scores = page.locator("#replay-scores td").all_inner_texts()
    assert [int(s) for s in scores] == state.scores()
    page.click("#replay-last")
    wait_step(page, len(record.actions))
    assert "The end" in page.inner_text("#replay-position")
    assert [int(s) for s in page.locator("#replay-scores td").all_inner_texts()] == (
        record.final_scores)
    page.click("#replay-first")
    wait_step(page, 0)
    page.select_option("#replay-speed", "15")
    page.click("#replay-play")  # autoplay
    wait_step(page, 6)
    page.click("#replay-play")  # pause
    paused = int(page.input_value("#replay-slider"))
    page.wait_for_timeout(300)
    assert int(page.input_value("#replay-slider")) == step_of(page) == paused
    assert 6 <= paused < len(record.actions)
    assert page.inner_text("#replay-play") == "Play"


def test_autoplay_draws_every_move_when_the_server_is_slower_than_the_speed(page, records):
    """At 15 moves a second against a server taking 150 ms a frame, every move is still drawn,
    in order (autoplay asks for the next move once the current one is drawn)."""
    open_record(page, records["finca"])
    page.evaluate("""() => {
        window.drawn = [];
        const board = document.querySelector('#replay-board');
        new MutationObserver(() => window.drawn.push(Number(board.dataset.step)))
            .observe(board, {attributes: true, attributeFilter: ['data-step']});
    }""")

    def slow(route):
        page.wait_for_timeout(150)
        route.continue_()

    page.route("**/api/replays/*/steps/*", slow)
    page.select_option("#replay-speed", "15")
    page.click("#replay-play")
    wait_step(page, 5)
    page.click("#replay-play")  # pause
    page.unroute_all(behavior="wait")  # a request still held would outlive the page
    drawn = page.evaluate("window.drawn")
    assert drawn[:5] == [1, 2, 3, 4, 5]


def test_bad_uploads_show_the_reason_and_keep_the_replay(page, records, tmp_path):
    open_record(page, records["alpujarras"])
    page.click("#replay-next")
    wait_step(page, 1)
    data = json.loads(records["alpujarras"].read_text())
    data["actions"][3] = 110
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(data))
    page.set_input_files("#replay-file", str(bad))
    assert message(page).startswith("record: game record: actions[3] cannot be replayed")
    big = tmp_path / "huge.json"
    big.write_bytes(b" " * ((2 << 20) + 10))
    page.set_input_files("#replay-file", str(big))
    page.wait_for_function("document.querySelector('#message-text').textContent.includes('limit')")
    assert "2,097,152-byte limit" in page.inner_text("#message-text")
    assert step_of(page) == 1 and page.inner_text("#replay-title").startswith("alpujarras, 3")
    page.click("#replay-next")  # the replay carries on
    wait_step(page, 2)


def palette_colours(palette) -> set[str]:
    """Every #rrggbb colour of a game's palette (lists and tables of colours included)."""
    if isinstance(palette, str):
        return {palette.lower()} if len(palette) == 7 and palette.startswith("#") else set()
    values = palette.values() if isinstance(palette, dict) else palette
    return set().union(*(palette_colours(v) for v in values)) if values else set()


@pytest.mark.parametrize("name", game_choices())  # every game, and the solo game
def test_each_board_is_drawn_in_the_pictures_colours(page, records, name):
    open_record(page, records[name])
    page.click("#replay-last")
    record = GameRecord.load(records[name])
    wait_step(page, len(record.actions))
    # the scores: a row per seat, then the board's extra rows (the solo game's Zara)
    extra = boards.state_json(record.game, replay(record), None).get("extra_scores", [])
    rows = [[cell.strip() for cell in row.split("\t")]
            for row in page.locator("#replay-scores tr").all_inner_texts()]
    assert rows[record.num_players:] == [[who, str(score)] for who, score in extra]
    board = page.locator("#replay-board svg")
    shot = Image.open(io.BytesIO(board.screenshot())).convert("RGB")
    assert shot.width > 900 and shot.height > 600
    colours = {colour for _, colour in shot.getcolors(shot.width * shot.height)}
    assert len(colours) > 300  # a drawn board, not a blank page
    palette = palette_colours(boards.palettes()[resolve_game(name)[0].name])
    # the colours the board's shapes (not its text) of at least 6 x 6 pixels are filled with
    fills = set(board.evaluate("""svg => [...svg.querySelectorAll("[fill]")]
        .filter((node) => node.tagName !== "text" && node.getBBox && (() => {
          const box = node.getBoundingClientRect();
          return box.width >= 6 && box.height >= 6;
        })())
        .map((node) => node.getAttribute("fill").toLowerCase())"""))
    used = fills & palette
    assert len(used) >= len(palette) / 2, (sorted(used), sorted(palette))  # drawn with it
    wanted = {tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in used}
    assert wanted <= colours  # filled with the Pillow picture's exact colours


# --- play -----------------------------------------------------------------------------------------
def test_a_whole_game_is_played_by_clicking_the_board(page):
    start_game(page, "alpujarras", players=2, agents=("random",), seed=7)
    board_clicks = list_clicks = 0
    while settle(page) == "your_turn":
        targets = legal_targets(page)
        for target in targets:  # every legal target is drawn, and highlighted
            assert page.locator(f'#play-board [data-target="{target}"].legal').count() >= 1
        texts = page.locator("#play-actions button").all_inner_texts()
        spaces = sorted((t for t in targets if t.startswith("space:")),
                        key=lambda t: int(t.split(":")[1]))
        if "end the turn" in texts:
            click_and_wait(page, page.locator("#play-actions button", has_text="end the turn"))
            list_clicks += 1
        elif spaces or targets:  # a middling mule move keeps the game short but not trivial
            target = spaces[min(3, len(spaces) - 1)] if spaces else targets[0]
            click_and_wait(page, page.locator(f'#play-board [data-target="{target}"].legal').first)
            board_clicks += 1
        else:
            click_and_wait(page, page.locator("#play-actions button").first)
            list_clicks += 1
        assert board_clicks + list_clicks < 300
    assert settle(page) == "over"
    assert page.inner_text("#play-status").startswith("Game over")
    assert board_clicks >= 5 and list_clicks >= 3
    moves = page.locator("#play-moves li").count()
    with page.expect_download() as download:
        page.click("#play-download")
    record = GameRecord.load(download.value.path())
    assert replay(record).is_terminal and len(record.actions) == moves


def test_an_illegal_click_is_refused_with_a_message_and_nothing_changes(page):
    start_game(page, "alpujarras", players=2, seed=11)
    step = step_of(page, "#play-board")
    moves = page.locator("#play-moves li").count()
    board = page.inner_html("#play-board")
    assert legal_targets(page)[0].startswith("space:")  # the mule moves first
    page.locator('#play-board [data-target="farmland:0"]').click(position={"x": 60, "y": 60})
    words = message(page)
    assert words.startswith("action: illegal action 56 (FARMLAND(green)")
    assert "the mule must move first" in words
    assert step_of(page, "#play-board") == step
    assert page.locator("#play-moves li").count() == moves
    assert page.inner_html("#play-board") == board
    target = legal_targets(page)[0]  # a legal click still plays
    click_and_wait(page, page.locator(f'#play-board [data-target="{target}"]'))
    assert page.is_hidden("#message")


@pytest.mark.parametrize(("game", "players"), [
    (name, None if resolve_game(name)[1] is not None else middle_count(name))  # a variant: fixed
    for name in game_choices()
])
def test_every_games_legal_moves_are_on_its_board(page, game, players):
    start_game(page, game, players=players, agents=("heuristic",), seed=2)
    spec, fixed = resolve_game(game)
    opponents = (f"against {', '.join(f'player_{s} heuristic' for s in range(1, players))}"
                 if fixed is None else spec.variants[game].label)  # the solo game: "against Zara"
    assert page.inner_text("#play-title") == f"{game}: you are player_0 {opponents}"
    targets = legal_targets(page)
    assert targets
    for target in targets:
        assert page.locator(f'#play-board [data-target="{target}"].legal').count() >= 1
    click_and_wait(page, page.locator(f'#play-board [data-target="{targets[-1]}"].legal').first)
    assert settle(page) in ("your_turn", "over")
    assert page.locator("#play-moves li").count() >= 1
    page.click("#play-stop")
    page.wait_for_function("document.querySelector('#play-board').dataset.status === 'stopped'")
    assert page.get_attribute("#play-download", "aria-disabled") == "false"


def test_bad_settings_show_the_servers_reason(page):
    page.click("#tab-play")
    page.select_option("#play-game", "finca")
    page.locator("#play-agents input").first.fill("alphazero")
    page.click("#play-start")
    assert message(page).startswith("agents[0]: unknown agent code 'alphazero'")
    assert page.is_visible("#play-form") and page.is_hidden("#play")


# --- results --------------------------------------------------------------------------------------
def test_results_show_the_runs_and_open_a_tournament_game(page):
    page.click("#tab-results")
    page.wait_for_selector("article.run[data-run='tour'] pre.table")
    assert "heuristic" in page.inner_text("article.run[data-run='tour'] pre.table")
    assert page.locator("article.run[data-run='train/finca-ppo'] img.plot").count() == 1
    assert "2,048 steps" in page.inner_text("article.run[data-run='train/finca-ppo'] p.muted")
    page.click("article.run[data-run='tour'] >> text=Show the games")
    page.locator(".games-table button", has_text="Replay").nth(1).click()
    page.wait_for_selector("#view-replay:not([hidden]) #replay-board svg")
    wait_step(page, 0)
    assert page.inner_text("#replay-source").startswith("tour/games.jsonl line 2")
    assert "player_0 (heuristic)" in page.inner_text("#replay-scores")
