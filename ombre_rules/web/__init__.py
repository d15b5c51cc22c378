"""`ombre serve`: a card table in the browser for people and bots (needs the `web` extra).

`create_app(data_dir)` makes the ASGI application; `serve.cmd_serve` runs it on uvicorn."""
