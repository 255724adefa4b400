"""Notifications: what the daemon pushes to the GM, and how it gets there.

    targets    where a game's notifications go (Apprise URLs with `{env:NAME}` for every
               secret), which events and severities each wants, its quiet hours
    notices    what happened, as short messages (pure: from the game as the daemon sees it)
    outbox     each notice for each target, stored before anything is sent
    send       one message to one target through Apprise, secrets resolved only there
    deliver    the outbox's due messages: retries with backoff, quiet hours, digests
    manage     what the GM does with the targets (`notify`, the dashboard): add, remove,
               list, test

Data flows one way: the daemon's review hands the game's facts to `notices`, queues them
in the `outbox` (the game's store), and `deliver` sends what is due. A notice is a record
before it is a message, so a daemon killed between the two sends it after its restart;
one delivered is marked so and never sent again. Apprise speaks to Discord, Slack,
Telegram, Matrix, e-mail, ntfy, Pushover and a hundred more services by URL: we write no
sender of our own.
"""
