"""What a forum's answer to a post or PM form says, sorted into what the writer does about
it (scrapers/forms.py), on the forums' own words: SMF 2.1.5's `Themes/default/languages`
and phpBB 3.3.10's `language/en` strings, in the boxes their themes put them in. And a
drafted PM's header read into its subject (outbox.pm_draft), on the real PM template."""

from __future__ import annotations

import pytest

from assistant.outbox import pm_draft
from assistant.scrapers.forms import refusal
from assistant.templating import template

SMF_FATAL = ('<div id="fatal_error"><h3>An Error Has Occurred</h3>'
             '<div class="windowbg">{}</div></div>')
SMF_FORM = ('<div class="errorbox" id="errors"><dl><dt><strong id="error_serious">'
            'The following error or errors occurred while posting this message:</strong></dt>'
            '<dd class="error" id="error_list">{}</dd></dl></div>')
PHPBB_FORM = '<form id="postform"><p class="error">{}</p></form>'
PHPBB_MESSAGE = ('<div class="panel" id="message"><div class="inner"><h2>Information</h2>'
                 '<p>{}</p></div></div>')

CASES = [
    (SMF_FATAL, "The last posting from your IP was less than 5 seconds ago. Please try again "
     "later.", "flood", 5.0),
    (SMF_FATAL, "The last personal message from your IP was less than 3 seconds ago. Please try "
     "again later.", "flood", 3.0),
    (PHPBB_FORM, "You cannot make another post so soon after your last.", "flood", None),
    (SMF_FORM, "Warning - while you were typing 1 new reply has been posted. You may wish to "
     "review your post.", "retype", None),
    (SMF_FORM, "Your session timed out while posting. Please try to re-submit your message.",
     "retype", None),
    (PHPBB_MESSAGE, "The submitted form was invalid. Try submitting again.", "retype", None),
    (SMF_FORM, "The letters you typed do not match the letters that were shown in the picture.",
     "captcha", None),
    (PHPBB_FORM, "The confirmation code you entered was incorrect.", "captcha", None),
    (SMF_FATAL, "This topic is locked, you are not allowed to post or modify messages.", "locked",
     None),
    (PHPBB_MESSAGE, "This topic is locked, you cannot edit posts or make further replies.",
     "locked", None),
    (SMF_FATAL, "You are not permitted to post replies to topics on this board.", "permission",
     None),
    (PHPBB_MESSAGE, "You cannot reply in this forum.", "permission", None),
    (PHPBB_MESSAGE, "You are not authorised to send private messages.", "permission", None),
    (SMF_FORM, "One or more 'to'-recipients could not be found.", "recipient", None),
    (PHPBB_FORM, "The requested users to be added do not exist.", "recipient", None),
    (PHPBB_FORM, "Some users couldn’t be added as they have disabled private message receipt.",
     "recipient", None),
    (SMF_FATAL, "You have exceeded the limit of 20 personal messages per hour.", "permission",
     None),
]


@pytest.mark.parametrize(("box", "text", "kind", "wait"), CASES)
def test_post_and_pm_refusals_are_sorted_by_what_to_do(box, text, kind, wait):
    said = refusal(f"<html><body>{box.format(text)}</body></html>")
    assert (said.kind, said.wait) == (kind, wait)
    assert text in said.message and "\n" not in said.message


def test_post_refusal_without_words_and_a_login_form():
    assert refusal("<html><body><p>Hello</p></body></html>").kind == "other"
    said = refusal('<html><body><form id="login"><input type="password"></form></body></html>',
                   login_form=True)
    assert said.kind == "login" and "session ended" in said.message


def test_pm_draft_reads_the_subject_of_the_pm_template():
    text = template("pm_result.j2").render(
        player="Lady Grey", title="Harbour Town Mafia", what="results of", phase="Night",
        number=2, lines=["Jd- is Mafia.", "You were roleblocked."])
    pm = pm_draft("result_pm", "Lady Grey", text, title="Harbour Town Mafia", phase="night",
                  number=2)
    assert pm.subject == "Harbour Town Mafia: results of Night 2"
    assert pm.body == "Jd- is Mafia.\nYou were roleblocked.\n"
    assert "To:" not in pm.body and pm.key == pm_draft(
        "result_pm", "Lady Grey", text, title="other").key
    bare = pm_draft("role_pm", "Kat", "You are the Doctor.", title="Chat Mafia")
    assert bare.subject == "Chat Mafia: role pm" and bare.body == "You are the Doctor.\n"
