"""`huerta replay`: a recorded game, verified, then step by step or as an animated GIF."""

from __future__ import annotations

import argparse
from typing import Any

from .arguments import Progress, check_output_file, float_range


def add_replay(sub: Any) -> None:
    """The `huerta replay` command and its arguments, on the subcommand parsers `sub`."""
    replay = sub.add_parser(
        "replay", help="print a recorded game step by step",
        description="Replay a JSON game record: one line per decision, then the final board. "
        "The record is verified first, as the API's replay() does (set-up, every step, final "
        "scores, checksum); a corrupt one is refused saying where.",
    )
    replay.add_argument("record", help="path of a game record (JSON)")
    replay.add_argument("--boards", action="store_true", help="print the board before each step")
    replay.add_argument("--gif", help="write an animated GIF (one frame per turn) here instead")
    replay.add_argument("--seconds", type=float_range(60), default=0.8,
                        help="GIF seconds per turn")
    replay.add_argument("--scale", type=float_range(8), default=1.0,
                        help="GIF frame size factor (above 0, at most 8)")
    replay.set_defaults(func=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    from huerta.envs.core.records import GameRecord, replay
    from huerta.envs.core.transcript import transcript_lines

    record = GameRecord.load(args.record)
    replay(record)  # exactly the API's checks: set-up, every step, final scores, checksum
    if args.gif:
        check_output_file(args.gif, "--gif")
        from ..animation import save_gif

        bars: dict[str, Progress] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in bars:
                for bar in bars.values():
                    bar.close()
                bars[stage] = Progress(f"{stage} frames", total)
            bars[stage].update_to(done)

        try:
            count = save_gif(record, args.gif, seconds_per_turn=args.seconds, scale=args.scale,
                             progress=progress)
        finally:
            for bar in bars.values():
                bar.close()
        print(f"{args.gif}: {count} frames (one per turn, then the final position)")
        return 0
    for line in transcript_lines(record, boards=args.boards):
        print(line)
    return 0
