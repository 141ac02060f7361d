"""CSV import (the real multilingual tickets corpus and hand-made tables), dispatch and assign_gold."""

from __future__ import annotations

import collections
import zipfile

import pytest
from shared_corpora import corpora_dir

from supportgym.core.errors import ConfigError, DataFormatError
from supportgym.envs.inbox.importers import (
    CsvSpec,
    ImportNote,
    assign_gold,
    convert_to_jsonl,
    detect_format,
    load_csv,
    load_emails,
    parse_gold_option,
    presets,
)
from supportgym.envs.inbox.models import Gold

CORPORA = corpora_dir()
TICKETS = CORPORA / "tickets" / "support_tickets_500.csv"
needs_tickets = pytest.mark.skipif(
    not TICKETS.is_file(), reason=f"tickets corpus not found at {TICKETS} (set SUPPORTGYM_CORPORA)"
)


@needs_tickets
def test_tickets_corpus_loads_all_rows_with_the_preset():
    emails = load_emails(TICKETS)  # no mapping: the support_tickets preset is detected from the header
    assert len(emails) == 500
    assert len({e.id for e in emails}) == 500
    assert emails[0].id == "support_tickets_500-1"
    languages = collections.Counter(e.meta["language"] for e in emails)
    assert set(languages) == {"en", "de", "es", "fr", "pt"}
    assert languages["en"] == 213
    assert all(e.gold is not None for e in emails)
    assert collections.Counter(e.gold.priority for e in emails) == {"high": 212, "medium": 200, "low": 88}
    categories = collections.Counter(e.gold.category for e in emails)
    assert categories["billing_inquiry"] == 42 and categories["sales_lead"] == 16 and categories["internal_hr"] == 5
    assert collections.Counter(e.gold.route_to for e in emails)["billing"] == 42
    assert emails[0].email.header.subject == "Problema de conexión urgente"
    assert emails[0].email.body.startswith("Estimado Servicio de Atención al Cliente,\n")  # multi-line cell
    assert sum(1 for e in emails if not e.email.header.subject) == 53  # empty subjects stay empty
    assert "queue" not in emails[0].meta and "priority" not in emails[0].meta  # labels stay in gold only
    assert load_csv(TICKETS, "support_tickets")[123] == emails[123]


@needs_tickets
def test_tickets_with_an_explicit_mapping_and_no_labels():
    emails = load_csv(TICKETS, {"subject": "subject", "body": "body"}, meta_columns=["language"])
    assert len(emails) == 500 and all(e.gold is None for e in emails)
    labelled = assign_gold(emails, priority="medium", category="technical_support", route_to="support_tier1")
    assert {e.gold.route_to for e in labelled} == {"support_tier1"}
    assert all(e.gold is None for e in emails)  # the input list is not modified


def test_own_table_with_value_maps_and_row_lines(tmp_path):
    path = tmp_path / "queue.csv"
    path.write_text(
        "ticket,from,title,text,when,prio,team,flag\n"
        't-1,a@x.com,Refund,"Line one\nline two",2024-05-01T08:00:00Z,P1,Money,yes\n'
        "t-2,b@x.com,Hello,Just saying hi,\"Wed, 01 May 2024 10:00:00 +0200\",P4,Misc,no\n"
        "t-3,c@x.com,Oops,Broken,,P9,Money,no\n",
        encoding="utf-8",
    )
    mapping = {"id": "ticket", "sender": "from", "subject": "title", "body": "text", "timestamp": "when",
               "priority": "prio", "category": "team", "route_to": "team", "flag_review": "flag"}
    maps = {"priority": {"P1": "urgent", "P4": "low"},
            "category": {"money": "billing_inquiry", "misc": "general_inquiry"},
            "route_to": {"Money": "billing", "Misc": "archive"}}
    with pytest.raises(DataFormatError) as info:
        load_csv(path, mapping, value_maps=maps)
    assert str(info.value).startswith(f"{path}:5: priority: Input should be 'urgent'")  # row t-3 starts on line 5
    assert "[got 'P9']" in str(info.value)
    maps["priority"]["P9"] = "medium"
    first, second, third = load_csv(path, mapping, value_maps=maps)
    assert load_emails(path, csv_mapping=CsvSpec(columns=mapping, value_maps=maps))[0] == first
    assert first.id == "t-1" and first.email.body == "Line one\nline two"
    assert first.gold == Gold(priority="urgent", category="billing_inquiry", route_to="billing", flag_review=True)
    assert second.email.header.timestamp == "2024-05-01T08:00:00Z"  # RFC 2822 date, converted to UTC
    assert third.email.header.timestamp == "1970-01-01T00:00:00Z"
    assert first.meta["source"] == f"{path}:2" and third.meta["source"] == f"{path}:5"


def test_csv_errors_name_file_and_line(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("subject,body\nok,fine\nonly-one-field\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"t\.csv:3: row has 1 fields, the header has 2"):
        load_emails(path)
    path.write_text("title,notes\na,b\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"t\.csv:1: cannot tell which column is the body.*'title', 'notes'.*Name the columns id, sender, subject, body"):
        load_emails(path)
    with pytest.raises(DataFormatError, match=r"t\.csv:1: mapped columns not in the header: got \['message'\]"):
        load_csv(path, {"body": "message"})
    path.write_text("subject,body,priority,category,route_to\na,b,high,,\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"t\.csv:2: partly labelled row"):
        load_emails(path)
    path.write_text("subject,body\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"t\.csv: no rows"):
        load_emails(path)
    path.write_text("", encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"t\.csv: empty file"):
        load_emails(path)


def test_bad_mappings_are_config_errors(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("subject,body\na,b\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"unknown field in CSV mapping: got \['text'\]"):
        load_csv(path, {"text": "body"})
    with pytest.raises(ConfigError, match="no body column"):
        load_csv(path, {"subject": "subject"})
    with pytest.raises(ConfigError, match="labels only part of gold"):
        load_csv(path, {"body": "body", "priority": "subject"})
    with pytest.raises(ConfigError, match=r"unknown CSV preset: got 'zendesk'; allowed: \['support_tickets'\]"):
        load_csv(path, "zendesk")
    with pytest.raises(ConfigError, match="csv_mapping given for a non-CSV input"):
        load_emails(path, fmt="jsonl", csv_mapping={"body": "body"})


def test_tsv_and_own_field_names(tmp_path):
    path = tmp_path / "mail.tsv"
    path.write_text("id\tsender\tsubject\tbody\tattachments\n"
                    "m1\ta@x.com\tHi\tBody text\tcv.pdf; photo.jpg\n", encoding="utf-8")
    (item,) = load_emails(path)
    assert (item.id, item.email.header.sender) == ("m1", "a@x.com")
    assert item.email.header.attachments == ("cv.pdf", "photo.jpg")


def test_preset_is_valid_data():
    spec = presets()["support_tickets"]
    queues = set(spec.value_maps["category"])
    assert queues == set(spec.value_maps["route_to"]) == set(spec.value_maps["acceptable_routes"])
    for queue, route in spec.value_maps["route_to"].items():
        Gold(priority="low", category=spec.value_maps["category"][queue], route_to=route,
             acceptable_routes=[r for r in spec.value_maps["acceptable_routes"][queue].split(";") if r])


def test_detect_format(tmp_path):
    (tmp_path / "a.mbox").write_bytes(b"")
    (tmp_path / "noext1").write_bytes(b"From x Thu Jan  1 00:00:00 2002\n")
    (tmp_path / "noext2").write_bytes(b'{"id": 1}\n')
    (tmp_path / "noext3").write_bytes(b"From: a@b\n\nhi\n")
    (tmp_path / "array.txt").write_bytes(b'[{"id": 1}]')
    assert detect_format(tmp_path) == "eml"
    found = [detect_format(tmp_path / n) for n in ("a.mbox", "noext1", "noext2", "noext3")]
    assert found == ["mbox", "mbox", "jsonl", "eml"]
    with pytest.raises(DataFormatError, match="JSON array is not supported"):
        detect_format(tmp_path / "array.txt")
    with pytest.raises(ConfigError, match="unknown email format"):
        load_emails(tmp_path / "noext3", fmt="outlook")


def test_assign_gold_labels_everything_and_checks_values(tmp_path):
    path = tmp_path / "m.eml"
    path.write_bytes(b"From: a@b.com\nSubject: WIN $$$\n\nclick\n")
    (spam,) = load_emails(path, gold={"priority": "spam", "category": "spam_phishing", "route_to": "trash"})
    assert spam.gold == Gold(priority="spam", category="spam_phishing", route_to="trash")
    (flagged,) = assign_gold([spam], flag_review=True)  # partial update of existing gold
    assert flagged.gold.flag_review and flagged.gold.route_to == "trash"
    (bare,) = load_emails(path)
    with pytest.raises(ConfigError, match=r"no gold yet, so give category, route_to"):
        assign_gold([bare], priority="low")
    with pytest.raises(ConfigError, match=r"gold route_to: got 'bin'; allowed: \['support_tier1'"):
        assign_gold([bare], priority="spam", category="spam_phishing", route_to="bin")
    with pytest.raises(ConfigError, match="at least one label"):
        assign_gold([bare])


def test_gold_option_and_convert_to_jsonl(tmp_path):
    gold = parse_gold_option("priority=spam, category=spam_phishing,route_to=trash,flag_review=no")
    assert gold == {"priority": "spam", "category": "spam_phishing", "route_to": "trash", "flag_review": False}
    assert parse_gold_option("acceptable_routes=archive;trash")["acceptable_routes"] == ["archive", "trash"]
    for bad in ("priority", "colour=red", "flag_review=maybe", " , "):
        with pytest.raises(ConfigError):
            parse_gold_option(bad)
    src = tmp_path / "one.eml"
    src.write_bytes(b"From: a@b.com\nSubject: hi\nDate: Tue, 3 Sep 2002 10:00:00 +0100\n\nhello\n")
    assert convert_to_jsonl(src, tmp_path / "out.jsonl", gold=gold) == 1
    (item,) = load_emails(tmp_path / "out.jsonl")
    assert item.gold == Gold(**gold)
    assert item.email.header.timestamp == "2002-09-03T09:00:00Z"


def test_auto_detected_partial_gold_columns_load_unlabelled_with_one_note(tmp_path):
    path = tmp_path / "prio_only.csv"
    path.write_text("id,subject,body,priority\nA,Login broken,I cannot log in,high\nB,Question,How?,low\n",
                    encoding="utf-8")
    with pytest.warns(ImportNote) as notes:
        emails = load_emails(path)
    assert [e.gold for e in emails] == [None, None]
    assert len(notes) == 1  # once per file, not once per row
    assert str(notes[0].message) == (
        f"{path}: gold column(s) priority found but category, route_to missing: gold needs priority, category and "
        "route_to, so every email is loaded without labels (add the missing columns, or label the whole file with "
        "--gold / assign_gold)")
    path.write_text("id,subject,body,priority,category,flag_review\nG1,Refund,Please refund,high,billing_inquiry,yes\n",
                    encoding="utf-8")
    with pytest.warns(ImportNote, match=r"priority, category, flag_review found but route_to missing"):
        (item,) = load_emails(path)
    assert item.gold is None and "priority" not in item.meta  # the partial labels go nowhere, not into meta
    with pytest.raises(ConfigError, match="labels only part of gold"):  # an explicit mapping is still an error
        load_csv(path, {"body": "body", "priority": "priority", "category": "category"})


def test_header_names_match_ignoring_case_spaces_and_word_breaks(tmp_path):
    path = tmp_path / "caps.csv"
    path.write_text("Subject,Body,Priority,Category,Route_To\nRefund,Please refund,high,billing_inquiry,billing\n",
                    encoding="utf-8")
    (item,) = load_emails(path)
    assert item.email.header.subject == "Refund" and item.email.body == "Please refund"
    assert item.gold == Gold(priority="high", category="billing_inquiry", route_to="billing")
    path.write_text(" ID , BODY ,priority,category, Route To ,Flag-Review\nx1,hi,low,general_inquiry,archive,no\n",
                    encoding="utf-8")
    (item,) = load_emails(path)
    assert item.id == "x1" and item.gold.route_to == "archive"
    path.write_text("Ticket,Description,Language\nt1,Broken,de\n", encoding="utf-8")
    (item,) = load_csv(path, {"id": "ticket", "body": "description"}, meta_columns=["language"])
    assert (item.id, item.email.body, item.meta["language"]) == ("t1", "Broken", "de")  # meta keyed as mapped
    path.write_text("subject,body,Body\na,b,c\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"caps\.csv:1: columns 'body' \(column 2\) and 'Body' \(column 3\) "
                                              r"both match 'body'.*rename or drop one"):
        load_emails(path)


def test_gold_values_are_case_insensitive_without_a_value_map(tmp_path):
    path = tmp_path / "gold.csv"
    path.write_text("id,body,priority,category,route_to,acceptable_routes\n"
                    "g1,Refund please,High,Billing_Inquiry,BILLING,Support_Tier1\n"
                    "g2,WIN $$$, spam ,Spam_Phishing,Trash,\n", encoding="utf-8")
    first, second = load_emails(path)
    assert first.gold == Gold(priority="high", category="billing_inquiry", route_to="billing",
                              acceptable_routes=["support_tier1"])
    assert second.gold == Gold(priority="spam", category="spam_phishing", route_to="trash")
    path.write_text("id,body,priority,category,route_to\ng3,x,Critical,billing_inquiry,billing\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"gold\.csv:2: priority: Input should be 'urgent', 'high', 'medium', "
                                              r"'low' or 'spam' \[got 'Critical'\]"):
        load_emails(path)
    (bare,) = load_csv(path, {"body": "body"})
    (labelled,) = assign_gold([bare], priority="Low", category="General_Inquiry", route_to="Archive")
    assert labelled.gold == Gold(priority="low", category="general_inquiry", route_to="archive")


def test_repeated_csv_ids_are_renamed_with_a_note(tmp_path):
    path = tmp_path / "dup.csv"
    path.write_text("id,subject,body\nA1,x,first\nA1,y,second\nA1,z,third\n", encoding="utf-8")
    with pytest.warns(ImportNote) as notes:
        emails = load_emails(path)
    assert [e.id for e in emails] == ["A1", "A1#2", "A1#3"]
    assert emails[1].meta["duplicate_of"] == "A1"
    assert [str(n.message) for n in notes] == [
        (f"{path}: 2 repeated id(s) renamed to keep ids unique (first: 'A1' -> 'A1#2'; meta['duplicate_of'] "
         "holds the original)")]


@pytest.mark.parametrize(
    ("name", "header", "row"),
    [("semicolon.csv", "id;subject;body;priority;category;route_to",
      'S1;Rechnung falsch;"Hallo; die Rechnung, bitte";high;billing_inquiry;billing'),
     ("tab.csv", "id\tsubject\tbody\tpriority\tcategory\troute_to",
      "S1\tRechnung falsch\tHallo; die Rechnung, bitte\thigh\tbilling_inquiry\tbilling"),
     ("pipe.txt.csv", "id|subject|body|priority|category|route_to",
      "S1|Rechnung falsch|Hallo; die Rechnung, bitte|high|billing_inquiry|billing"),
     ("quoted.csv", '"id,x";subject;body;priority;category;route_to',  # the ',' inside quotes is not counted
      'S1;Rechnung falsch;"Hallo; die Rechnung, bitte";high;billing_inquiry;billing')],
)
def test_delimiter_is_detected_from_the_header_line(tmp_path, name, header, row):
    path = tmp_path / name
    path.write_text(f"{header}\n{row}\n", encoding="utf-8")
    (item,) = load_emails(path)
    assert item.email.header.subject == "Rechnung falsch"
    assert item.email.body == "Hallo; die Rechnung, bitte"
    assert item.gold == Gold(priority="high", category="billing_inquiry", route_to="billing")


def test_a_table_under_another_extension_loads_and_a_workbook_is_named(tmp_path):
    # a user walkthrough of 4 Dec: a CSV saved as .txt was read as one raw email ("no mail headers")
    txt = tmp_path / "export.txt"
    txt.write_text("Subject;Body\nLogin broken;I cannot log in since Monday.\n", encoding="utf-8")
    emails = load_emails(txt)
    assert len(emails) == 1 and emails[0].email.body.startswith("I cannot log in")
    book = tmp_path / "export.xlsx"
    with zipfile.ZipFile(book, "w") as z:
        z.writestr("xl/workbook.xml", "<workbook/>")
    with pytest.raises(DataFormatError, match="Excel workbook.*save the sheet as CSV"):
        load_emails(book)


def test_an_ambiguous_date_is_refused_with_the_forms_that_load(tmp_path):
    # "03/04/2025" is March or April depending on the writer: the error says what to write instead
    path = tmp_path / "t.csv"
    path.write_text("subject,body,timestamp\nHi,Please help.,03/04/2025 10:00\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"t\.csv:2: .*03/04/2025.*2025-03-04T10:00:00Z.*no timestamp column"):
        load_emails(path)


def test_a_helpdesk_export_loads_by_its_own_column_names_with_a_note(tmp_path):
    # a user walkthrough of 4 Dec: "Ticket #, Requester Email, Title, Description" needed a mapping in Python
    path = tmp_path / "helpdesk.csv"
    path.write_text("Ticket #,Requester Email,Title,Description,Created\n"
                    "T-1,dana@northwind.io,Charged twice,\"We were charged twice, please refund one.\",03/04/2025\n",
                    encoding="utf-8")
    with pytest.warns(ImportNote, match="body <- 'Description'"):
        (email,) = load_emails(path)
    assert (email.id, email.email.header.sender, email.email.header.subject) == ("T-1", "dana@northwind.io",
                                                                                   "Charged twice")
    assert email.email.body.startswith("We were charged twice") and email.gold is None
    own = tmp_path / "own.csv"  # our own names win over an alias beside them
    own.write_text("subject,body,description\nHi,the body,not this\n", encoding="utf-8")
    assert load_emails(own)[0].email.body == "the body"


def test_helpdesk_names_under_another_extension_and_addresses_before_names(tmp_path):
    # a review of 4 Dec: an export saved as .txt with only alias names fell through to "not an email", and a
    # "Requester" column of names was taken as the sender before "Customer Email"
    txt = tmp_path / "export.txt"
    txt.write_text("Ticket ID,Requester,Customer Email,Title,Description\nT-9,Ann Lee,ann@x.org,Hi,Please help.\n",
                   encoding="utf-8")
    with pytest.warns(ImportNote, match="sender <- 'Customer Email'"):
        (email,) = load_emails(txt)
    assert email.email.header.sender == "ann@x.org" and email.email.body == "Please help."


def test_gold_option_folds_the_case_of_acceptable_routes_and_names_bad_ones(tmp_path):
    from supportgym.envs.inbox.importers import assign_gold, parse_gold_option

    path = tmp_path / "t.csv"
    path.write_text("subject,body\nHi,Please help.\n", encoding="utf-8")
    (email,) = load_emails(path)
    gold = parse_gold_option("priority=Low,category=General_Inquiry,route_to=Archive,acceptable_routes=SUPPORT_TIER1")
    (out,) = assign_gold([email], gold=gold)
    assert out.gold.acceptable_routes == ["support_tier1"] and out.gold.route_to == "archive"
    with pytest.raises(ConfigError, match=r"acceptable_routes.*nowhere.*support_tier1"):
        assign_gold([email], gold={**gold, "acceptable_routes": ["nowhere"]})


@pytest.mark.parametrize("first_line", ["Message", "Details, please see below", "Text:"])
def test_a_note_whose_first_line_names_a_body_alias_is_not_a_table(tmp_path, first_line):
    # a second review of 4 Dec: alias detection would have read such a note as a CSV
    from supportgym.envs.inbox.importers import detect_format

    note = tmp_path / "note.txt"
    note.write_text(f"{first_line}\nFrom: a@x.org\n\nHello\n", encoding="utf-8")
    assert detect_format(note) == "eml"


def test_a_renamed_repeat_never_takes_an_id_the_file_already_has(tmp_path):
    # red team of 5 Dec: rows "A1#2, A1, A1" gave the third row "A1#2" again; with episodes of one email the eval's
    # id map then gave the second email the third one's labels
    path = tmp_path / "t.csv"
    path.write_text("id,subject,body\nA1#2,third,x\nA1,first,y\nA1,second,z\n", encoding="utf-8")
    emails = load_csv(path, mapping={"id": "id", "subject": "subject", "body": "body"})
    assert [(e.id, e.email.header.subject) for e in emails] == [("A1#2", "third"), ("A1", "first"), ("A1#3", "second")]


def test_jsonl_text_is_cleaned_as_the_other_formats_clean_it(tmp_path):
    # red team of 5 Dec: a lone surrogate (an emoji cut in half) made every string the agent quoted invalid, and the
    # episode stalled on that email until max_steps, exit 0 with nothing scored
    from supportgym.envs.inbox.importers import load_jsonl

    path = tmp_path / "m.jsonl"
    path.write_text('{"id": "a1", "sender": "x@y.z", "subject": "half \\ud83d", "body": "b \\ud800 c\\u0000"}\n',
                    encoding="utf-8")
    e = load_jsonl(path)[0]
    assert "\ud800" not in e.email.body and "\x00" not in e.email.body and "\ud83d" not in e.email.header.subject
    path.write_text('{"id": "a\\n1", "sender": "x@y.z", "subject": "s", "body": "b"}\n', encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"m.jsonl:1: id: .*printable"):
        load_jsonl(path)


def test_attachment_names_are_bounded_and_the_cut_noted(tmp_path):
    from supportgym.envs.inbox.importers import load_jsonl
    from supportgym.envs.inbox.importers.limits import MAX_ATTACHMENT_NAME_CHARS, MAX_ATTACHMENTS

    path = tmp_path / "m.jsonl"
    names = [f"f{i}.pdf" for i in range(5000)] + ["x" * 10_000]
    path.write_text('{"id": "a1", "sender": "x@y.z", "subject": "s", "body": "b", "attachments": '
                    + __import__("json").dumps(names[::-1]) + '}\n', encoding="utf-8")
    e = load_jsonl(path)[0]
    assert len(e.email.header.attachments) == MAX_ATTACHMENTS
    assert max(map(len, e.email.header.attachments)) == MAX_ATTACHMENT_NAME_CHARS
    assert "attachments 5001->100 names" in e.meta["truncated"]
