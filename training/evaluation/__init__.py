"""Evaluation, apart from training: agents play games, tournaments and the benchmark, and what
they played becomes ratings, tables and plots. Imports flow one way: runners, then results and
tables, then plots (plots name the others' types only for type checking).

    runners   matches.py (one game, a batch), jobs.py (games as jobs, on worker processes),
              tournament.py (a round-robin; its folder: tournament_folder.py), ray_tournament.py
              (its games on Ray), benchmark.py (an agent against the ladder)
    results   ratings.py (Wilson intervals, openskill), anchored.py (ratings anchored on the
              ladder), ladder.py (the rungs and their reference ratings), leaderboard.py (the
              SQLite file of every benchmarked game)
    tables    tournament_result.py, tournament_table.py, benchmark_table.py, standings.py
              (`huerta leaderboard`)
    plots     plots.py
"""
