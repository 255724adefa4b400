"""The GM's live dashboard: a local web page served by `assistant run --web`.

It shows what the command line shows and changes what the command line changes, by
calling the same functions (assistant/gm.py: `count`'s `game_tally`, `alerts --ack`'s
`acknowledge`, `order`'s `enter_orders`, the drafts), so the page cannot disagree with
`count --json`.

    pages.py   the data of each page, gathered from those functions
    chart.py   the day's vote history as a server-drawn SVG
    guard.py   who may reach it: loopback host names, the GM's token, no cross-site POSTs
    app.py     the Starlette routes, the templates (autoescaped), the live-update stream
    server.py  uvicorn in a thread beside the daemon's scheduler
"""
