"""A Mi Tierra strategy a decent human would recognise, as a short lookahead on a position value.

The plan, in the words of a player at the table:

- **Build an animal engine toward cake and cloth.** Barnyards first (Forest), then cows and sheep
  into them, hens into the henhouse; once 2 cows, 4 hens or 3 sheep are in, the Animal Products
  Factory turns $5 into milk, eggs and wool every round, the Bakery turns 1 milk + 2 eggs + $8
  into a $49 cake and the Cloth Factory 3 wool + $7 into a $47 cloth. Goods that complete a cake
  or a cloth are worth far more than any market pays for them, so they are kept, not sold.
- **Work the fields that pay double.** A new field goes next to a field of the same crop (a
  worker on a connected pair harvests 2); farm workers go on the biggest groups.
- **Sell at the established markets when the price is good**: each good has a value to keep
  (about three quarters of a typical market price while rounds remain, falling to the 3-for-$1
  end exchange); a sale is made when the market pays more than that, the best market first, and
  in the last round whatever is left goes to the Black Market, which still beats the exchange.
- **Buy developments that compound**: a card is worth its income per round (a Bank $3, a Milk
  factory a milk when 2 cows are in...) times the rounds left, against the spot's price.
- **Keep money for upkeep and factories; hire early, never late.** A fourth or fifth worker earns
  more than its $2 upkeep while many rounds remain; the factories need cash at hand when they act.

The package declares the `Heuristic` members (`huerta.agents.heuristics.protocol`), one concern
a module: `fields` (the farm), `holdings` (what goods and holdings are worth), `projection` (the
rest of the round), `value` (`position_value`), `turns` (the choices of one decision, and
`afterstate_turn`, the same choices rated by a learned value) and `agent` (`MiTierraHeuristic`).
"""

from ..protocol import SearchSettings
from .agent import MiTierraHeuristic
from .holdings import Holdings, Worths, holdings_value, rounds_left
from .projection import project
from .turns import afterstate_turn, best_unit, placement_gains, unit_margins
from .value import position_value

AGENT = MiTierraHeuristic
# chosen by 30-game trials of the search agent (README, the search agent)
SEARCH = SearchSettings(margin_scale=30.0, simulations=24, horizon=3, width=6)
solo_value = None  # Mi Tierra has no solo game
stalled = None  # every Mi Tierra position goes on
# the agent judges one decision at a time (a placement, or the line a market turn starts), not
# complete turns; the afterstate agent judges the same choices by their positions
complete_turns = None

__all__ = [
    "AGENT", "SEARCH", "Holdings", "MiTierraHeuristic", "Worths", "afterstate_turn",
    "best_unit", "complete_turns", "holdings_value", "placement_gains", "position_value",
    "project", "rounds_left", "solo_value", "stalled", "unit_margins",
]
