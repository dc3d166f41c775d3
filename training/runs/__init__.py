"""The run-folder layer: one way to write and read a run's folder, under every training method
(PPO, afterstate, CEM, RLlib), the tournaments, the benchmark and the web page.

    layout.py       the names of a run's files and folders, and what shows a run is there
    files.py        files (and folders) written whole: a temporary name, then a rename
    safe_read.py    reading a folder someone else wrote: regular files within a size limit
    checks.py       the checks of a run's settings, one wording for all
    eval_log.py     eval.csv: append, trim on resume, read, the best evaluation
    checkpoints.py  a run's checkpoints: where, which to resume from, how many kept
    stop.py         the stop-signal context (SIGINT, SIGTERM) and `TrainingInterrupted`
    claim.py        claiming a folder for a new run (--force) and resuming the one in it
    provenance.py   the source commit and libraries of each session, for the models' `about`

The modules import only each other (and `huerta.envs.core`), never the rest of
`huerta.training`; this package re-exports their public names.
"""

from __future__ import annotations

from .checkpoints import (
    AUTO_CHECKPOINTS_KEPT,
    checkpoint_steps,
    resume_candidates,
    save_checkpoint,
    save_folder_checkpoint,
)
from .checks import checked_float, checked_int, is_int, refuse
from .claim import check_resume_or_force, claim_run, resumed_config
from .eval_log import (
    append_eval,
    best_candidates,
    best_key,
    imitated,
    parse_eval_rows,
    rates_of,
    read_best,
    read_eval,
    read_eval_rows,
    trim_eval,
)
from .files import (
    clear_run,
    copy_atomic,
    replace_folder,
    save_atomically,
    temporary_path,
    write_atomic,
    write_json,
)
from .layout import local_run_evidence, rllib_checkpoints, rllib_run_evidence
from .provenance import (
    library_versions,
    read_sessions,
    record_session,
    run_provenance,
    source_commit,
)
from .safe_read import (
    NotRegularFile,
    is_regular,
    open_regular,
    read_json_safely,
    read_regular,
    read_text_safely,
)
from .stop import (
    START_AFRESH,
    EvaluationInterrupted,
    Stop,
    TrainingInterrupted,
    ignore_sigint,
    signals_caught,
)

__all__ = [
    "AUTO_CHECKPOINTS_KEPT", "START_AFRESH", "EvaluationInterrupted", "NotRegularFile", "Stop",
    "TrainingInterrupted", "append_eval", "best_candidates", "best_key", "check_resume_or_force",
    "checked_float", "checked_int", "checkpoint_steps", "claim_run", "clear_run", "copy_atomic",
    "ignore_sigint", "imitated", "is_int", "is_regular", "library_versions",
    "local_run_evidence", "open_regular", "parse_eval_rows", "rates_of", "read_best",
    "read_eval", "read_eval_rows", "read_json_safely", "read_regular", "read_sessions",
    "read_text_safely", "record_session", "refuse", "replace_folder", "resume_candidates",
    "resumed_config", "rllib_checkpoints", "rllib_run_evidence", "run_provenance",
    "save_atomically", "save_checkpoint", "save_folder_checkpoint", "signals_caught",
    "source_commit", "temporary_path", "trim_eval", "write_atomic", "write_json",
]
