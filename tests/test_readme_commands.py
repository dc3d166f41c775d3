"""The commands of the README and of the documentation pages run, so neither can go stale.

Every `huerta ...` command the README or a hand-written docs page (docs/**/*.md) shows, in a
```bash or ```sh block or inline, is parsed by the command's own parser (a renamed flag, a game
or a removed command fails here). The bash blocks are then run in order, each in a fresh folder,
as a user would paste them, with small budgets: `--games 2`, `--steps 64` (or `--value-games 4`)
and a tiny network for training, `mcts:4` and `search:4`; so are the inline `huerta tournament` and
`huerta train` commands of the README and the manual's pages. The results pages (docs/results/)
record the commands that made each figure: their training runs (dearer) run under HUERTA_FULL=1
(tests/budgets.py); their tournaments pass every check `huerta tournament` makes before its
first game (seats, counts, every agent code for the game and seat count, each agent built), but
are not played: scripts/results.py plays them when it measures, and the manual's tournaments and
the agents' own tests play the same agents. Commands that differ only in their `--out` folder (or
`--no-progress`) run once. Commands on a Ray cluster (`--backend`), and tournaments of a model an
earlier command of a measurement trained (the baselines pages' `learned:model.npz`), are parsed,
not run. The docs pages' Python blocks run too.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from budgets import FULL

from huerta.training.cli import build_parser
from huerta.training.cli import main as huerta

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOC_PAGES = sorted((ROOT / "docs").rglob("*.md"))
RESULTS = ROOT / "docs" / "results"
# every text whose commands are checked: the README first, then the docs pages by path
TEXTS = {"README.md": README} | {
    page.relative_to(ROOT).as_posix(): page.read_text(encoding="utf-8") for page in DOC_PAGES
}
MANUAL = {name: text for name, text in TEXTS.items()
          if not (ROOT / name).is_relative_to(RESULTS)}

# settings that make `huerta train` finish in seconds; the README's flags are kept
TINY_TRAINING = {
    "n_steps": 32, "batch_size": 32, "n_epochs": 1, "net_arch": [16],
    "eval_every": 64, "eval_games": 2, "snapshot_every": 64, "checkpoint_every": 64,
    "envs": 1, "imitation_games": 2, "imitation_epochs": 1, "value_epochs": 1,
    "cem_population": 2, "cem_elite": 1, "cem_deals": 1,
}
PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_.]{2,}\b|\[|\.\.\.|<")


def bash_blocks(text: str = README) -> list[list[str]]:
    """The commands of each ```bash block: continuation lines joined, comments dropped."""
    blocks = []
    for body in re.findall(r"```bash\n(.*?)```", text, re.S):
        joined = re.sub(r"\\\n\s*", " ", body)
        commands = [line.split("#", 1)[0].strip() for line in joined.splitlines()]
        blocks.append([c for c in commands if c])
    return blocks


def inline_commands(text: str = README) -> list[str]:
    """Inline `huerta ...` spans with real values (not a synopsis with GAME or [--flag])."""
    spans = (" ".join(m.split()) for m in re.findall(r"`(huerta [^`]+)`", text))
    return sorted({s for s in spans if not PLACEHOLDER.search(s)})


def sh_commands(text: str = README) -> list[str]:
    """`huerta` lines of ```sh blocks (shown, not run: they need a Ray cluster), without those
    with placeholders such as HEAD_IP."""
    found = []
    for body in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in re.sub(r"\\\n\s*", " ", body).splitlines():
            command = line.split("#", 1)[0].strip()
            if command.startswith("huerta ") and not PLACEHOLDER.search(command):
                found.append(command)
    return found


def all_bash_blocks() -> list[list[str]]:
    """The bash blocks of the README and every docs page, each once, in the texts' order."""
    seen: list[list[str]] = []
    for text in TEXTS.values():
        seen += [block for block in bash_blocks(text) if block not in seen]
    return seen


def huerta_commands() -> list[str]:
    return sorted({c for block in all_bash_blocks() for c in block if c.startswith("huerta ")}
                  | {c for text in TEXTS.values() for c in inline_commands(text)}
                  | {c for text in TEXTS.values() for c in sh_commands(text)})


def plays_a_made_file(command: str) -> bool:
    """Whether a tournament plays a model by a relative path (`learned:model.npz`,
    `rllib:run`): a file an earlier command of the same measurement wrote, in its folder."""
    argv = command.split()
    if "--agents" not in argv:
        return False
    codes = argv[argv.index("--agents") + 1].split(",")
    return any(name in ("learned", "ppo", "rllib") and arg and not Path(arg).is_absolute()
               for name, _, arg in (code.partition(":") for code in codes))


def runnable_inline(texts: dict[str, str]) -> set[str]:
    """The inline `huerta tournament` and `huerta train` commands with arguments of `texts`
    that run on this machine (not on a Ray cluster) on their own (a tournament of a model an
    earlier command trained is parsed only: each method's tiny run is tested with its
    trainer, tests/training)."""
    return {c for text in texts.values() for c in inline_commands(text)
            if c.split()[1] in ("tournament", "train") and len(c.split()) > 2
            and "--backend" not in c.split() and not plays_a_made_file(c)}


def without_out(command: str) -> str:
    """The command without its `--out FOLDER` and `--no-progress`: two that differ only there
    do the same work."""
    argv = [arg for arg in command.split() if arg != "--no-progress"]
    if "--out" in argv:
        at = argv.index("--out")
        del argv[at:at + 2]
    return " ".join(argv)


def once_each(commands: set[str]) -> list[str]:
    """`commands` sorted, keeping the first of those that differ only in their `--out` (or
    `--no-progress`)."""
    kept: dict[str, str] = {}
    for command in sorted(commands):
        kept.setdefault(without_out(command), command)
    return sorted(kept.values())


RESULTS_TEXTS = {name: text for name, text in TEXTS.items() if name not in MANUAL}
# the manual's commands run always; the results pages' training runs under HUERTA_FULL=1
INLINE_RUNS = once_each(runnable_inline(MANUAL) | {
    c for c in runnable_inline(RESULTS_TEXTS) if FULL and c.split()[1] == "train"})
RESULTS_TOURNAMENTS = sorted(c for c in runnable_inline(RESULTS_TEXTS)
                             if c.split()[1] == "tournament")


def small(argv: list[str]) -> list[str]:
    """The command with small budgets."""
    out = []
    for i, arg in enumerate(argv):
        previous = argv[i - 1] if i else ""
        if previous == "--games":
            arg = "2"
        elif previous == "--steps":
            arg = "64"
        elif previous == "--value-games":
            arg = "4"
        elif previous == "--generations":
            arg = "1"
        elif previous == "--seconds":
            arg = "0.05"
        elif previous == "--agents":  # searches of a few simulations
            arg = ",".join("search:4" if code.split(":")[0] == "search" else code
                           for code in re.sub(r"mcts:\d+", "mcts:4", arg).split(","))
        out.append(arg)
    if out[0] == "train":
        method = training_method(out)
        if method == "afterstate":  # a budget in heuristic games, not steps
            if "--value-games" not in out:
                out += ["--value-games", "4"]
        elif method == "cem":  # a budget in generations
            if "--generations" not in out:
                out += ["--generations", "1"]
        elif "--steps" not in out:
            out += ["--steps", "64"]
        out += ["--config", "tiny.json", "--no-progress"]
    if out[0] == "tournament":
        out.append("--quiet")
    return out


def training_method(argv: list[str]) -> str:
    """The method `huerta train` (argv without `huerta`) trains with: --method, else the
    game's."""
    from huerta.training.config import TrainConfig

    if "--method" in argv:
        return argv[argv.index("--method") + 1]
    players = int(argv[argv.index("--players") + 1]) if "--players" in argv else 2
    return TrainConfig(game=argv[1], players=players).check().method


def test_the_readme_and_the_docs_show_commands_to_check():
    assert len(all_bash_blocks()) >= 4
    assert len(huerta_commands()) >= 10
    assert {"docs/training.md", "docs/tournaments.md", "docs/benchmark.md"} <= set(TEXTS)


def test_the_results_pages_commands_are_checked_too():
    assert RESULTS_TEXTS, "no results pages under docs/results/"
    recorded = {c for text in RESULTS_TEXTS.values() for c in inline_commands(text)}
    assert recorded <= set(huerta_commands())
    assert len(RESULTS_TOURNAMENTS) >= 10


def test_commands_that_differ_only_in_their_out_folder_run_once():
    commands = {"huerta train finca --seed 0 --out runs/a", "huerta train finca --seed 0",
                "huerta train finca --seed 1 --out runs/a",
                "huerta train finca --seed 0 --out run --no-progress"}
    assert once_each(commands) == ["huerta train finca --seed 0",
                                   "huerta train finca --seed 1 --out runs/a"]


@pytest.mark.parametrize("command", huerta_commands())
def test_every_readme_command_parses(command):
    argv = shlex.split(command)[1:]
    parser = build_parser()
    if len(argv) == 1:  # the text names a command ("`huerta play` plays ..."): it exists
        assert argv[0] in parser._subparsers._group_actions[0].choices
        return
    assert parser.parse_args(argv).command == argv[0]


def test_the_two_commands_are_make_targets():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    first = bash_blocks()[0]
    assert [c.split()[:2] for c in first] == [["make", "run"], ["make", "test"]]
    for target in ("run", "test", "docs"):
        assert re.search(rf"^{target}: ", makefile, re.M), target
    assert "make docs" in README


@pytest.mark.parametrize("block", all_bash_blocks()[1:], ids=lambda b: b[0][:40])
def test_every_readme_block_runs_with_small_budgets(block, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny.json").write_text(json.dumps(TINY_TRAINING))
    for command in block:
        argv = shlex.split(command)
        if argv[0] == "tensorboard":  # the logs it names exist; the server is not started
            logdir = argv[argv.index("--logdir") + 1]
            assert list(Path(logdir).rglob("events.out.tfevents.*")), command
            continue
        assert argv[0] == "huerta", command
        code = huerta(small(argv[1:]))
        out = capsys.readouterr()
        assert code == 0, f"{command}\n{out.out}\n{out.err}"
        if argv[1] == "tournament":
            assert "win %" in out.out, command
        if argv[1] == "train":
            out_dir = argv[argv.index("--out") + 1]
            made = "best_policy.npz" if training_method(argv[1:]) in ("afterstate", "cem") \
                else "final_model.zip"
            assert (Path(out_dir) / made).is_file(), command


@pytest.mark.parametrize("command", INLINE_RUNS)
def test_inline_commands_run_with_small_budgets(command, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny.json").write_text(json.dumps(TINY_TRAINING))
    code = huerta(small(shlex.split(command)[1:]))
    out = capsys.readouterr()
    assert code == 0, f"{command}\n{out.out}\n{out.err}"


@pytest.mark.parametrize("command", RESULTS_TOURNAMENTS)
def test_results_pages_tournaments_pass_the_checks_before_the_first_game(command):
    """A results page's tournament passes every check `huerta tournament` makes before its
    first game: the parser's, then `check_tournament`'s (the seats, games, workers and seed,
    every agent code for the game and seat count with a `learned` seat's shipped model opened,
    each agent built); scripts/results.py plays it."""
    from huerta.envs.core.registry import resolve_game
    from huerta.training.cli.arguments import check_agent_argument
    from huerta.training.evaluation.jobs import check_tournament

    args = build_parser().parse_args(shlex.split(command)[1:])
    check_agent_argument(args)
    spec, players = resolve_game(args.game, args.players)
    codes = args.agents.split(",")
    assert check_tournament(spec.name, codes, players or 2, args.games, args.seed,
                            args.workers or 1) == codes


@pytest.mark.parametrize("page", [p for p in DOC_PAGES if "```python" in p.read_text()],
                         ids=lambda p: p.name)
def test_docs_python_blocks_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    namespace: dict = {"__name__": "docs_example"}
    exec(compile("\n".join(blocks), str(page), "exec"), namespace)
