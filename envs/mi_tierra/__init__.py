"""Mi Tierra for 2-4 players: the engine (`new_game`, `MiTierraState`), its data, environments."""
