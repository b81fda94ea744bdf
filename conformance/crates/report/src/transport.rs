//! The transport a record's subject travelled over, typed: every view spells
//! it as [`Kind::name`] does, and a run document another wirecheck wrote
//! still loads whatever it names.

use std::fmt;

use ground::transport::Kind;

/// The transport a record's subject travelled over (or a run's peer was
/// spoken to over), as every view writes it: `stdio`, `streamable-http`,
/// `sse`, `jsonrpc-http`, or `diff`'s peers over several of them joined by
/// `+` (`stdio+streamable-http`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Transport {
    /// One transport: every record but those of a `diff` across transports.
    One(Kind),
    /// `diff`'s peers over more than one transport, in the order the peers
    /// are named, a run of peers over the same one named once.
    Several(Vec<Kind>),
    /// A name this wirecheck does not know, read from a document another
    /// version wrote: kept as read, so `wirecheck report` still loads and
    /// renders the document as it was written.
    Other(String),
}

impl Transport {
    /// The transport of peers spoken to over `kinds`, in order: one, or
    /// several with a run of the same one named once (`diff` names its
    /// stdio peers first, so each transport appears once).
    #[must_use]
    pub fn of(kinds: impl IntoIterator<Item = Kind>) -> Transport {
        let mut kinds: Vec<Kind> = kinds.into_iter().collect();
        kinds.dedup();
        match kinds.as_slice() {
            [one] => Transport::One(*one),
            _ => Transport::Several(kinds),
        }
    }

    /// The transport named `text`: a [`Kind::name`], several joined by `+`,
    /// else a name kept as read ([`Transport::Other`]), never an error.
    #[must_use]
    pub fn parse(text: &str) -> Transport {
        if let Ok(kind) = text.parse::<Kind>() {
            return Transport::One(kind);
        }
        let kinds: Result<Vec<Kind>, _> = text.split('+').map(str::parse::<Kind>).collect();
        match kinds {
            Ok(kinds) if kinds.len() > 1 => Transport::Several(kinds),
            _ => Transport::Other(text.to_owned()),
        }
    }

    /// The one transport, when it is one this wirecheck knows.
    #[must_use]
    pub fn kind(&self) -> Option<Kind> {
        match self {
            Transport::One(kind) => Some(*kind),
            Transport::Several(_) | Transport::Other(_) => None,
        }
    }
}

impl From<Kind> for Transport {
    fn from(kind: Kind) -> Self {
        Transport::One(kind)
    }
}

impl PartialEq<Kind> for Transport {
    fn eq(&self, other: &Kind) -> bool {
        self.kind() == Some(*other)
    }
}

impl fmt::Display for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Transport::One(kind) => f.write_str(kind.name()),
            Transport::Several(kinds) => {
                for (i, kind) in kinds.iter().enumerate() {
                    if i > 0 {
                        f.write_str("+")?;
                    }
                    f.write_str(kind.name())?;
                }
                Ok(())
            }
            Transport::Other(name) => f.write_str(name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ground::transport::HttpKind;

    /// Every spelling a record carries reads back as the same transport and
    /// writes back as the same text.
    #[test]
    fn every_spelling_reads_back() {
        let mut spellings: Vec<(Transport, &str)> = Kind::ALL
            .into_iter()
            .map(|k| (Transport::One(k), k.name()))
            .collect();
        spellings.push((
            Transport::Several(vec![Kind::Stdio, Kind::STREAMABLE_HTTP]),
            "stdio+streamable-http",
        ));
        for (transport, text) in spellings {
            assert_eq!(transport.to_string(), text);
            assert_eq!(Transport::parse(text), transport, "{text}");
        }
    }

    /// `diff`'s peers: stdio first, each transport named once.
    #[test]
    fn several_peers_name_each_transport_once() {
        let stdio_then_http = [Kind::Stdio, Kind::Stdio, Kind::STREAMABLE_HTTP];
        assert_eq!(
            Transport::of(stdio_then_http).to_string(),
            "stdio+streamable-http"
        );
        assert_eq!(
            Transport::of([Kind::Http(HttpKind::Sse); 2]),
            Transport::One(Kind::Http(HttpKind::Sse))
        );
    }

    /// A name this wirecheck does not know (an older `http`, a transport of
    /// a later version) is kept as read, never refused.
    #[test]
    fn an_unknown_name_is_kept() {
        for text in ["http", "tcp+stdio", "", "stdio+"] {
            assert_eq!(Transport::parse(text), Transport::Other(text.into()));
            assert_eq!(Transport::parse(text).to_string(), text);
        }
    }

    /// A run document keeps each transport's spelling: written as today,
    /// read back as the same transport, and a name this wirecheck does not
    /// know (a document another version wrote) still loads, as read.
    #[test]
    fn a_run_document_keeps_every_spelling() {
        use crate::{document, Command, Outcome, Place, Record, Report, Subject};
        let mut transports: Vec<Transport> = Kind::ALL.into_iter().map(Transport::One).collect();
        transports.push(Transport::of([Kind::Stdio, Kind::STREAMABLE_HTTP]));
        transports.push(Transport::Other("carrier-pigeon".into()));
        let mut report = Report::new(Command::Run);
        for transport in &transports {
            let place = Place {
                transport: Some(transport.clone()),
                ..Place::default()
            };
            report.records.push(Record::new(
                place,
                Subject::Frame(Vec::new()),
                Outcome::Pass,
            ));
        }
        let text = String::from_utf8(document::to_vec(&report)).unwrap();
        for transport in &transports {
            let member = format!("\"transport\": \"{transport}\"");
            assert!(text.contains(&member), "{member} in {text}");
        }
        let back = document::from_slice(text.as_bytes()).unwrap();
        let read: Vec<Option<Transport>> = back
            .records
            .into_iter()
            .map(|r| r.place.transport)
            .collect();
        let written: Vec<Option<Transport>> = transports.into_iter().map(Some).collect();
        assert_eq!(read, written);
    }
}
