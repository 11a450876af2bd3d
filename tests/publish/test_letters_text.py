"""What a letter says in words (DESIGN.md "Publishing"): the salutation greets the given name
first, counts are written as people write them, and a correction says what changed."""

from __future__ import annotations

from flows.mail.letters import Block, Letter, salutation_name, text_body, without_addresses
from flows.mail.messages import Correction, what_changed
from flows.site.render import plural


def test_a_list_name_surname_comma_given_is_greeted_given_name_first():
    assert salutation_name("Mishra, Meera") == "Meera Mishra"
    assert salutation_name(" Naidu ,  Rohan ") == "Rohan Naidu"
    # as written: no comma, more than one, or a side left empty
    assert salutation_name("Chief Arbiter") == "Chief Arbiter"
    assert salutation_name("Andhra Pradesh Chess Association") == "Andhra Pradesh Chess Association"
    assert salutation_name("Smith, Jr., John") == "Smith, Jr., John"
    assert salutation_name("Mishra,") == "Mishra,"


def test_the_letter_greets_by_the_salutation_name_and_lists_keep_the_name_as_written():
    x = Letter(key="player-open-1-round-01", to_name="Mishra, Meera", to_email="m@x.example",
               subject="Round 1", lead="You won.", blocks=(Block(table=(("Name",), ("Mishra, Meera",))),))
    body = text_body(x, site_url="", signature="The office")
    assert body.startswith("Dear Meera Mishra,\n\nYou won.\n")
    assert "\nMishra, Meera\n" in body


def test_counts_are_written_with_their_noun_in_the_singular_or_plural():
    assert plural(1, "section") == "1 section"
    assert plural(27, "section") == "27 sections"
    assert plural(0, "error") == "0 errors"
    assert plural(2, "entry", "entries") == "2 entries"


def test_what_changed_names_each_changed_line_of_the_letter():
    old = "Dear Ann,\n\nRound 5: you won.\n\nPoints\n------\n4.5 points, place 3.\n\nThe office\n"
    new = "Dear Ann,\n\nRound 5: a draw.\n\nPoints\n------\n4 points, place 5.\nA new line.\n\nThe office\n"
    assert what_changed(old, new) == ("'Round 5: you won.' is now 'Round 5: a draw.'",
                                      "'4.5 points, place 3.' is now '4 points, place 5.'",
                                      "new: 'A new line.'")
    assert what_changed(old, old) == ()
    many = "Dear Ann,\n\n" + "\n".join(f"line {i}" for i in range(6))
    more = "Dear Ann,\n\n" + "\n".join(f"line {i}!" for i in range(6))
    assert what_changed(many, more, most=2)[-1] == "and 4 more"


def test_a_correction_notice_says_when_the_first_letter_went_and_what_changed():
    c = Correction("<a@x>", references="<z@x>", sent="2024-09-23T18:05:00+00:00",
                   changes=("'1-0' is now '0-1'",))
    assert c.notice() == ("Correction — this letter replaces our letter of 23 September 2024 on the "
                          "same subject. What changed: '1-0' is now '0-1'.")
    assert c.chain() == "<z@x> <a@x>"
    assert "its details" in Correction("<a@x>").notice()


def test_a_manifest_note_carries_no_address_as_the_inputs_wrote_it():
    note = "no letter to Ann (member 1): email 'ann@@x' must hold exactly one '@'"
    assert without_addresses(note) == "no letter to Ann (member 1): email '…' must hold exactly one '…'"
    assert "@" not in without_addresses("sent to bob@x.example and 'cy@y.example'")
