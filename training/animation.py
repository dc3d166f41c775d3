"""A recorded game as an animation: one frame per turn, the turn's actions written beneath.

A turn ends when the acting player changes or the game ends (games whose state counts turns,
such as Finca's `turns`, use that count, so a player's consecutive turns get a frame each).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from huerta.envs.core.errors import HuertaError
from huerta.envs.core.pictures import Canvas, _pil
from huerta.envs.core.records import GameRecord, apply_recorded, start_state

CAPTION_HEIGHT = 70


def turn_frames(record: GameRecord) -> list[tuple[np.ndarray, str]]:
    """(picture before the turn, caption) for every turn, then the final position."""
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
    final = "final scores " + ", ".join(
        f"player_{p} {s}" for p, s in enumerate(state.scores())
    )
    if state.is_terminal:
        final += " | winner(s): " + ", ".join(f"player_{w}" for w in state.winners())
    frames.append((picture, final))
    return frames


def captioned(picture: np.ndarray, caption: str) -> np.ndarray:
    """The picture with a caption band beneath (long captions wrap onto a second line)."""
    height, width, _ = picture.shape
    canvas = Canvas(width, height + CAPTION_HEIGHT, background="#ffffff")
    image, _, _ = _pil()
    canvas.image.paste(image.fromarray(picture), (0, 0))
    limit = width // 8
    lines = [caption[:limit], caption[limit: 2 * limit]] if len(caption) > limit else [caption]
    for k, line in enumerate(lines):
        canvas.text((12, height + 10 + 26 * k), line, size=17, fill="#111111")
    return canvas.to_array()


def save_gif(
    record: GameRecord, path: str | Path, seconds_per_turn: float = 0.8, scale: float = 1.0
) -> int:
    """Write the animation (frames resized by `scale`); returns the number of frames (turns +
    the final position)."""
    image, _, _ = _pil()
    frames = [image.fromarray(captioned(p, c)) for p, c in turn_frames(record)]
    if scale != 1.0:
        size = (round(frames[0].width * scale), round(frames[0].height * scale))
        frames = [f.resize(size, image.LANCZOS) for f in frames]
    # flat colours: a small palette without dithering keeps the file small and crisp
    frames = [f.quantize(colors=96, method=image.Quantize.MEDIANCUT, dither=image.Dither.NONE)
              for f in frames]
    duration = [int(seconds_per_turn * 1000)] * len(frames)
    duration[-1] = 3000  # linger on the final position
    frames[0].save(
        str(path), save_all=True, append_images=frames[1:], duration=duration, loop=0,
        optimize=True,
    )
    return len(frames)
