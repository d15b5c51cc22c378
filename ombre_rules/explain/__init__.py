"""Explanations the engine gives while it plays: expressions in words (`phrase`), a small evaluator of the
parsed expressions (`evaluate`), the labelled account of a deal's payments (`account`) and the obligation that
makes a card illegal (`why`). Below the engine: they read a state they are handed, never import it."""
