"""The names of what a run folder holds, and what in a folder shows that it holds a run.

Every writer and reader of run folders takes its file names from here: the training methods
(local: PPO, afterstate, CEM; and RLlib), the tournaments and the web page, which lists a folder
as a training run when it holds `EVAL_FILE` and as a tournament when it holds `SUMMARY_FILE` or
`GAMES_FILE`.
"""

from __future__ import annotations

from pathlib import Path

# --- a training run ------------------------------------------------------------------------------
CONFIG_FILE = "config.json"  # the run's settings (a TrainConfig or RLlibTrainConfig)
EVAL_FILE = "eval.csv"  # the evaluation log (eval_log.py)
MODEL_FILE = "best_policy.npz"  # the exported best model: numpy arrays and JSON, no pickle
CURVE_FILE = "learning_curve.png"  # the evaluations drawn over training
CHECKPOINTS = "checkpoints"  # the folder of a run's checkpoints
PROVENANCE_FILE = "provenance.json"  # each session's source commit and libraries (provenance.py)

# what a local run (PPO, afterstate, cem) may hold: the files and folders --force removes, and
# the glob in each folder that shows a run is there
LOCAL_RUN_FILES = (CONFIG_FILE, EVAL_FILE, "best_model.zip", "final_model.zip", MODEL_FILE,
                   CURVE_FILE, "imitation.json", "afterstate.json", "cem.jsonl", PROVENANCE_FILE)
LOCAL_RUN_FOLDERS = (CHECKPOINTS, "pool", "tb", "imitation", "afterstate", "values")
LOCAL_RUN_GLOBS = ((CHECKPOINTS, "*.zip"), ("pool", "*.zip"), ("imitation", "chunk_*.npz"),
                   ("afterstate", "chunk_*.npz"), ("values", "*.npz"))

# what an RLlib run may hold (its checkpoints are folders, complete once LEAGUE_FILE is in them)
RLLIB_RUN_FILES = (CONFIG_FILE, EVAL_FILE, "metrics.jsonl", CURVE_FILE, PROVENANCE_FILE)
RLLIB_POLICY_FOLDERS = ("best_policy", "final_policy")
RLLIB_RUN_FOLDERS = (CHECKPOINTS, "tb", *RLLIB_POLICY_FOLDERS)
LEAGUE_FILE = "league.json"
RLLIB_CHECKPOINT_PREFIX = "step_"

# --- a tournament --------------------------------------------------------------------------------
GAMES_FILE = "games.jsonl"  # one finished game per line, appended as it ends
SETTINGS_FILE = "tournament.json"  # the settings a resumed tournament must match
SUMMARY_FILE = "summary.json"  # the results, written at the end
TABLE_FILE = "table.txt"  # the results table as printed
TOURNAMENT_PLOT = "tournament.png"
LOCK_FILE = ".lock"  # held while a tournament writes its folder
MAX_LINE_BYTES = 2 << 20  # one games.jsonl line: a record (at most 1 MiB) and a few fields


def local_run_evidence(run: Path) -> list[str]:
    """What in `run` belongs to a local training run (empty when there is none)."""
    found = [name for name in LOCAL_RUN_FILES if (run / name).exists()]
    for folder, pattern in LOCAL_RUN_GLOBS:
        if any((run / folder).glob(pattern)):
            found.append(f"{folder}/")
    return found


def rllib_checkpoints(run: Path) -> list[Path]:
    """An RLlib run's complete checkpoints (`LEAGUE_FILE` written last), newest first."""
    folder = run / CHECKPOINTS
    if not folder.is_dir():
        return []
    prefix = RLLIB_CHECKPOINT_PREFIX
    found = [p for p in folder.glob(f"{prefix}*")
             if p.is_dir() and (p / LEAGUE_FILE).is_file() and p.name[len(prefix):].isdigit()]
    return sorted(found, key=lambda p: int(p.name[len(prefix):]), reverse=True)


def rllib_run_evidence(run: Path) -> list[str]:
    """What in `run` belongs to an RLlib training run (empty when there is none)."""
    found = [name for name in RLLIB_RUN_FILES if (run / name).exists()]
    found += [f"{name}/" for name in RLLIB_POLICY_FOLDERS if (run / name).exists()]
    if rllib_checkpoints(run):
        found.append(f"{CHECKPOINTS}/")
    return found
