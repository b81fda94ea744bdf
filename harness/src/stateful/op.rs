//! The operations a stateful sequence is made of: each one well-formed, each
//! a step a real client takes. Nothing here is malformed; what is tested is
//! the order.

/// A paginated list (server/utilities/pagination §Operations Supporting
/// Pagination).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum List {
    /// `tools/list`.
    Tools,
    /// `prompts/list`.
    Prompts,
    /// `resources/list`.
    Resources,
    /// `resources/templates/list`.
    Templates,
}

impl List {
    /// Every list, in the order sequences name them.
    pub const ALL: [List; 4] = [List::Tools, List::Prompts, List::Resources, List::Templates];

    /// The request method.
    #[must_use]
    pub fn method(self) -> &'static str {
        match self {
            List::Tools => "tools/list",
            List::Prompts => "prompts/list",
            List::Resources => "resources/list",
            List::Templates => "resources/templates/list",
        }
    }

    /// The result member holding the page's items.
    #[must_use]
    pub fn items_key(self) -> &'static str {
        match self {
            List::Tools => "tools",
            List::Prompts => "prompts",
            List::Resources => "resources",
            List::Templates => "resourceTemplates",
        }
    }

    /// The member of an item that names it.
    #[must_use]
    pub fn name_key(self) -> &'static str {
        match self {
            List::Tools | List::Prompts => "name",
            List::Resources => "uri",
            List::Templates => "uriTemplate",
        }
    }

    /// The server capability that declares the list.
    #[must_use]
    pub fn capability(self) -> &'static str {
        match self {
            List::Tools => "tools",
            List::Prompts => "prompts",
            List::Resources | List::Templates => "resources",
        }
    }

    /// The notification that says the list changed (templates are resources'
    /// list: server/resources §List Changed Notification names one).
    #[must_use]
    pub fn changed_notification(self) -> &'static str {
        match self {
            List::Tools => "notifications/tools/list_changed",
            List::Prompts => "notifications/prompts/list_changed",
            List::Resources | List::Templates => "notifications/resources/list_changed",
        }
    }
}

/// One step of a sequence. Indices into what the session has learnt (the
/// resources listed so far) are taken modulo its length when the step runs,
/// so any sequence runs whatever was dropped from it by shrinking.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Op {
    /// Every page of the list, from the first, each `nextCursor` followed.
    Walk(List),
    /// A cursor the server issued earlier in this session for the list,
    /// sent again.
    Revisit(List),
    /// A cursor the server never issued.
    BogusCursor(List),
    /// `resources/subscribe` to the n-th resource listed so far.
    Subscribe(usize),
    /// `resources/unsubscribe` from the n-th resource listed so far.
    Unsubscribe(usize),
    /// `ping`: time passing, and a request that fences what came before.
    Ping,
    /// Streamable HTTP: DELETE the session (basic/transports §Session
    /// Management 5); later operations open a new one.
    EndSession,
    /// Streamable HTTP: a `ping` carrying the id of the last session ended.
    ReuseEnded,
}

impl Op {
    /// A short name for the operation, as a story line starts.
    #[must_use]
    pub fn label(&self) -> String {
        match self {
            Op::Walk(l) => format!("walk {}", l.method()),
            Op::Revisit(l) => format!("revisit a cursor of {}", l.method()),
            Op::BogusCursor(l) => format!("{} with a cursor never issued", l.method()),
            Op::Subscribe(n) => format!("resources/subscribe (resource #{n})"),
            Op::Unsubscribe(n) => format!("resources/unsubscribe (resource #{n})"),
            Op::Ping => "ping".into(),
            Op::EndSession => "DELETE the session".into(),
            Op::ReuseEnded => "ping with the ended session's id".into(),
        }
    }
}
