"""Simulation at scale: many deals with bots, in parallel or on a cluster, and statistics comparing variants."""
