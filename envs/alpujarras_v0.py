"""PettingZoo-style entry module: `from huerta.envs import alpujarras_v0; alpujarras_v0.env()`.

`alpujarras_v0.env(num_players=1)` is the solo game against Zara.

Alpujarras is set in the terraced valleys south of Granada. Players move their mules along a
track of action spaces; the rearmost mule always moves next, so a short step can buy several
turns in a row. Standard spaces place and move farmers (each placement earns a fruit of that
farmland), irrigate (norias for the fewer farmers beside the channel, and a crop token drawn
from the bag onto a field) and pay norias, fruit and dirhems; market spaces deliver fruit to a
town for a delivery token, the first two deliveries in a town also earning its award; harvest
spaces pay the primary fruit of every farmland where a player leads and let them complete a goal.
On the end track players deliver, complete a goal and sell their fruit; the score is dirhems plus
the tokens' dirhem sides.

In the solo game the scripted opponent Zara moves a die-driven mule and plays her own standard,
market and harvest actions inside the environment; the player must meet a duty at every market
and harvest (ten in all) and finish with more dirhems than Zara.
"""

from .alpujarras.env import env, raw_env

__all__ = ["env", "raw_env"]
