# %% [markdown]
# # Analysing a comparison deal by deal
#
# A notebook in cells (`# %%`: Jupyter, VS Code and Spyder open it as one; `python examples/analysis_notebook.py`
# runs it whole). It needs the 'analysis' extra (`pip install 'ombre_rules[analysis]'`: pandas, pyarrow).
#
# The question: what does the all-pass rule change in classic Ombre? `compare` answers it in its report; here
# the same comparison's per-deal rows go into pandas, the report's paired statistics are recomputed from them
# (`ombre_rules.analysis`), and a question the report does not ask is asked of the rows: which positions does
# the forced game cost, when the holder of spadille must play?
#
#     python examples/analysis_notebook.py [--deals 2000] [--out compare-all-pass]

# %%
import argparse
import os
import sys

from ombre_rules.cli import main

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--deals", type=int, default=2000)
parser.add_argument("--out", default="compare-all-pass")
args = parser.parse_args(sys.argv[1:] if __name__ == "__main__" else [])

# %% [markdown]
# ## 1. The comparison, with its rows
#
# `--sweep all_pass` plays the same deals under each choice of the option (redeal, spadille_force, contrabola),
# and `--rows` writes one row per deal and variant (a `.csv`, `.jsonl` or `.parquet` file).

# %%
rows = os.path.join(args.out, "rows.parquet")
os.makedirs(args.out, exist_ok=True)
code = main(["compare", "ombre", "--sweep", "all_pass", "--deals", str(args.deals), "--seed", "1",
             "--out", args.out, "--rows", rows, "--quiet"])
assert code == 0, code

# %% [markdown]
# ## 2. The rows
#
# One row per deal and variant: the seed and dealer, contract, declarer (and his position from the dealer),
# outcome, the declarer's success (1, 0, or empty when nobody declared) and payment (0 when nobody declared),
# tricks and payments by seat (`tricks_K`, `pay_seat_K`) and by position (`pay_pos_0` is forehand, the last the
# dealer), and the per-deal metrics (WinnerShare, AdvantageP1, Duration, LeadChange, Drama, DecisionMoves).

# %%
import ombre_rules.analysis as oa  # noqa: E402

df = oa.load(rows)
base, forced, contrabola = oa.variants(df)
print(df.shape)
print(df.groupby("variant")["contract"].value_counts(dropna=False).unstack(fill_value=0))

# %% [markdown]
# ## 3. The report's tests, from the rows
#
# `differences` gives every paired test of the report: each measure deal by deal over every deal, the
# positions, each contract's share, the declarer's success rate and Balance (BCa), Holm-corrected together.
# The figures are the report's own (`metrics.json`).

# %%
tests = oa.differences(df)
print(tests[tests.significant][["variant", "test", "difference", "ci_low", "ci_high", "p_holm"]].to_string())

# %% [markdown]
# Which contract each deal became under the forced game (rows: redeal; columns: spadille_force), and each
# contract's paired share difference:

# %%
print(oa.transitions(df, base, forced))
print(oa.contract_shares(df, base, forced)[["base", "other", "mean", "ci", "p"]])

# %% [markdown]
# ## 4. A question of one's own: who pays for the forced game?
#
# The deals passed out under redeal are the only ones the forced game changes. Pairing them, deal by deal, the
# payment of each position from the dealer tells who the forced declarer is and what it costs each seat.

# %%
paired = oa.pair(df, base, forced)
changed = paired[paired["contract_base"].isna()]
for k, name in enumerate(["forehand", "2nd after the dealer", "dealer"]):
    d = changed[f"pay_pos_{k}_other"] - changed[f"pay_pos_{k}_base"]
    print(f"{name}: {d.mean():+.2f} a changed deal ({len(d)} deals), declared the forced game in "
          f"{(changed['declarer_position_other'] == k).mean():.0%} of them")
print("declarer's success in the forced game:",
      oa.success_rate(df[df["contract"] == "spadille_forced"], forced))
