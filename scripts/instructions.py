"""Compare the instructions an `env()` step costs in two versions of the code, with callgrind.

Wall-clock benchmarks on a shared machine drift by 10-20% from run to run; instruction counts do
not. This plays the same fixed random games (seeds 0..games-1, one `random.Random(0)` pick per
decision, the `huerta bench` loop) through the AEC env of the working tree and of an older
commit, under valgrind's callgrind with address-space randomisation off, once and three times
over: the difference, halved, is the cost of one pass with the masks already built and the
imports paid. Prints both counts and the change.

    python scripts/instructions.py --old 6990285 --game mi_tierra --players 2 --games 8
    python scripts/instructions.py --old HEAD~1 --game finca --players 3 --games 2 --engine

Needs `valgrind` and `setarch` (util-linux) on the PATH; about a minute per game and version.
The two versions run side by side, one per core.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("envs", "agents", "training", "web")  # the folders that make up `huerta`

# The game loop that runs under callgrind: `env()` mode is the benchmark's AEC loop, `engine`
# mode its bare-engine loop (training/bench.py's, written out here rather than imported, so that
# both versions run the same harness); the picks depend on the masks only, so equal rules play
# equal games.
PLAY = r'''
import random, sys
game, engine = sys.argv[1], sys.argv[5] == "1"
players, games, reps = (int(x) for x in sys.argv[2:5])
from huerta.envs.core.registry import get_game
spec = get_game(game)
def pick(mask, rand):
    legal = mask.nonzero()[0]
    return int(legal[int(rand.random() * len(legal))])
if engine:
    for _ in range(reps):
        rand = random.Random(0)
        for g in range(games):
            state = spec.new_game(players, seed=g)
            while not state.is_terminal and state.steps < spec.default_max_steps:
                state.apply(pick(state.legal_mask(), rand))
else:
    from huerta.envs.core.aec import BoardGameAEC
    env = BoardGameAEC(spec, players)
    for _ in range(reps):
        rand = random.Random(0)
        for g in range(games):
            env.reset(seed=g)
            for _ in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                env.step(None if term or trunc else pick(obs["action_mask"], rand))
'''


def package_view(source: Path, into: Path) -> Path:
    """A folder holding `huerta/<package>` links to `source`'s package folders, to put first on
    PYTHONPATH so that `import huerta` finds that version."""
    (into / "huerta").mkdir(parents=True)
    for name in PACKAGES:
        (into / "huerta" / name).symlink_to(source / name)
    return into


def count(path: Path, args: argparse.Namespace, reps: int, script: Path, out: Path) -> int:
    """Instructions callgrind counts for `reps` passes over the games with `path` first on the
    path."""
    env = dict(os.environ, PYTHONPATH=str(path), PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1")
    cmd = ["setarch", "-R", "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
           sys.executable, str(script), args.game, str(args.players), str(args.games), str(reps),
           "1" if args.engine else "0"]
    run = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode or not found:
        raise SystemExit(f"callgrind failed for {path}:\n{run.stderr[-2000:]}")
    return int(found.group(1))


def per_pass(path: Path, args: argparse.Namespace, script: Path, work: Path) -> float:
    """Instructions of one pass over the games: (three passes - one pass) / 2."""
    one = count(path, args, 1, script, work / f"{path.name}.1.out")
    three = count(path, args, 3, script, work / f"{path.name}.3.out")
    return (three - one) / 2


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True, help="the commit to compare with (any git rev)")
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=4, help="random games per pass")
    parser.add_argument("--engine", action="store_true", help="the bare engine, no observation")
    args = parser.parse_args(argv)
    for tool in ("valgrind", "setarch"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not installed")
    with tempfile.TemporaryDirectory(prefix="huerta-instr-") as tmp:
        work = Path(tmp)
        old_tree = work / "old-tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q",
                        str(old_tree), args.old], check=True)
        try:
            script = work / "play.py"
            script.write_text(PLAY)
            views = [package_view(old_tree, work / "old"), package_view(ROOT, work / "new")]
            for view in views:  # compile once, so that no pass pays for it
                subprocess.run([sys.executable, "-c", "import huerta.envs, huerta.envs.core.aec"],
                               env=dict(os.environ, PYTHONPATH=str(view)), check=True)
            with ThreadPoolExecutor(2) as pool:
                old, new = pool.map(lambda v: per_pass(v, args, script, work), views)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(old_tree)], check=False)
    mode = "engine" if args.engine else "env()"
    print(f"{args.game} {args.players}p {mode}, {args.games} games a pass: "
          f"old {old:,.0f}, new {new:,.0f} instructions a pass ({100 * (new / old - 1):+.2f}%)")


if __name__ == "__main__":
    main()
