"""A recorded game as an animation: one frame per turn, the turn's actions written beneath.

A turn ends when the acting player changes or the game ends (games whose state counts turns,
such as Finca's `turns`, use that count, so a player's consecutive turns get a frame each).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from huerta.envs.core.errors import HuertaError
from huerta.envs.core.pictures import Canvas, pil
from huerta.envs.core.records import GameRecord, apply_recorded, start_state

CAPTION_HEIGHT = 70
CAPTION_SIZE = 17


# progress(stage, done, total): stage "drawing" counts the record's actions replayed, "encoding"
# the frames written
Progress = Callable[[str, int, int], None]


def turn_frames(
    record: GameRecord, progress: Progress | None = None
) -> list[tuple[np.ndarray, str]]:
    """(picture before the turn, caption) for every turn, then the final position; `progress`
    is told how many actions are replayed each time a frame is drawn."""
    state = start_state(record)
    if not hasattr(state, "render_rgb"):
        raise HuertaError(f"{record.game} has no picture yet (render_mode='rgb_array')")
    frames: list[tuple[np.ndarray, str]] = []
    picture = state.render_rgb()
    actor = state.current_player
    texts: list[str] = []
    turn_of = getattr(state, "turns", None)
    for i, action in enumerate(record.actions):
        texts.append(state.describe(action))
        apply_recorded(state, i, action)
        turn_now = getattr(state, "turns", None)
        ended = state.is_terminal or (
            turn_now != turn_of if turn_of is not None else state.current_player != actor
        )
        if ended:
            frames.append((picture, f"player_{actor}: " + "; ".join(texts)))
            picture = state.render_rgb()
            actor, texts, turn_of = state.current_player, [], turn_now
            if progress is not None:
                progress("drawing", i + 1, len(record.actions))
    if progress is not None:
        progress("drawing", len(record.actions), len(record.actions))
    final = "final scores " + ", ".join(
        f"player_{p} {s}" for p, s in enumerate(state.scores())
    )
    if state.is_terminal:
        final += " | winner(s): " + ", ".join(f"player_{w}" for w in state.winners())
    frames.append((picture, final))
    return frames


def captioned(picture: np.ndarray, caption: str) -> np.ndarray:
    """The picture with a caption band beneath: the caption wraps between words onto a second
    line, and a caption longer than two lines ends with '...'."""
    height, width, _ = picture.shape
    canvas = Canvas(width, height + CAPTION_HEIGHT, background="#ffffff")
    image, _, _ = pil()
    canvas.image.paste(image.fromarray(picture), (0, 0))
    for k, line in enumerate(_caption_lines(canvas, caption, width - 24)):
        canvas.text((12, height + 10 + 26 * k), line, size=CAPTION_SIZE, fill="#111111")
    return canvas.to_array()


def _caption_lines(canvas: Canvas, caption: str, room: float, most: int = 2) -> list[str]:
    """`caption` word-wrapped into at most `most` lines of `room` pixels."""
    lines: list[str] = []
    line = ""
    for word in caption.split(" "):
        candidate = f"{line} {word}" if line else word
        if line and canvas.text_width(candidate, CAPTION_SIZE) > room:
            lines.append(line)
            line = word
        else:
            line = candidate
    lines.append(line)
    if len(lines) > most:
        last = " ".join(lines[most - 1:])
        while last and canvas.text_width(last + " ...", CAPTION_SIZE) > room:
            last = last[:-1]
        lines = [*lines[:most - 1], last.rstrip() + " ..."]
    return lines


def save_gif(
    record: GameRecord, path: str | Path, seconds_per_turn: float = 0.8, scale: float = 1.0,
    progress: Progress | None = None,
) -> int:
    """Write the animation (frames resized by `scale`); returns the number of frames (turns +
    the final position). `progress(stage, done, total)` follows the drawing (actions replayed)
    and then the encoding (frames)."""
    image, _, _ = pil()
    pictures = turn_frames(record, progress)
    frames = []
    size = None
    for k, (picture, caption) in enumerate(pictures):
        frame = image.fromarray(captioned(picture, caption))
        if scale != 1.0:
            size = size or (round(frame.width * scale), round(frame.height * scale))
            frame = frame.resize(size, image.LANCZOS)
        # flat colours: a small palette without dithering keeps the file small and crisp
        frames.append(frame.quantize(colors=96, method=image.Quantize.MEDIANCUT,
                                     dither=image.Dither.NONE))
        if progress is not None:
            progress("encoding", k + 1, len(pictures))
    duration = [int(seconds_per_turn * 1000)] * len(frames)
    duration[-1] = 3000  # linger on the final position
    frames[0].save(
        str(path), save_all=True, append_images=frames[1:], duration=duration, loop=0,
        optimize=True,
    )
    return len(frames)

