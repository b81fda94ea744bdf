//! Playing one sequence against live sessions: each operation sent as the
//! well-formed requests it stands for, every answer and notification handed
//! to the model ([`harness::stateful::Model`]), each request told as a
//! numbered line of the story a finding reports.

use std::time::Duration;

use harness::stateful::{Answer, Breach, Caps, List, Model, Op};
use harness::Raw;
use serde_json::{json, Value};

use crate::livefuzz::peer::{Live, Waits};
use crate::livefuzz::Config;
use crate::transcript::Entry;
use crate::transport::wire::Wire;

/// A breach, with where in the sequence it showed.
#[derive(Debug, Clone)]
pub struct Found {
    /// The broken expectation.
    pub breach: Breach,
    /// The index of the operation that showed it.
    pub op: usize,
}

/// What one sequence did.
#[derive(Debug, Default)]
pub struct Played {
    /// The story: one line per request (and per DELETE), in order.
    pub story: Vec<String>,
    /// The breaches, in the order they showed.
    pub found: Vec<Found>,
    /// Requests sent, DELETEs included.
    pub requests: u64,
    /// Sessions opened.
    pub sessions: usize,
    /// The wire log of the last session.
    pub log: Vec<Entry>,
}

/// Opens a session the way `wirecheck fuzz` does ([`Live::start`]) and
/// reads what it declared.
///
/// # Errors
/// The peer does not start, or the handshake does not complete.
pub async fn open(config: &Config) -> Result<(Live, Caps), String> {
    let waits = Waits {
        answer_timeout: config.timeout,
        grace: Duration::ZERO,
    };
    let mut live = Live::start(
        &config.target,
        config.revision,
        &waits,
        config.limits,
        &config.http,
    )
    .await?;
    let capabilities = live
        .handshake()
        .result
        .get("capabilities")
        .cloned()
        .unwrap_or(Value::Null);
    let sessions = session_id(&mut live).is_some();
    Ok((live, Caps::of(config.revision, &capabilities, sessions)))
}

/// The Streamable HTTP session id of `live`, if it has one.
fn session_id(live: &mut Live) -> Option<String> {
    match live.driver_mut().transport() {
        Wire::Streamable(peer) => peer.session_id(),
        _ => None,
    }
}

/// Plays `ops`, on `first` when given (a session just opened for it), else
/// on a fresh one; later sessions are opened as the sequence needs them.
///
/// # Errors
/// A session cannot be opened.
pub async fn play(
    config: &Config,
    ops: &[Op],
    first: Option<(Live, Caps)>,
) -> Result<Played, String> {
    let (live, mut caps) = match first {
        Some(opened) => opened,
        None => open(config).await?,
    };
    if !matches!(config.target, crate::transport::Target::Stdio(_)) {
        // Over HTTP a server sends `list_changed` on the GET stream, which
        // no sequence opens: a change it announced there would read as one
        // never announced, a warning that is the tool's error. Judged over
        // stdio only, where every notification comes on the one stream.
        caps.list_changed.clear();
    }
    let mut player = Player {
        config,
        model: Model::new(config.revision, caps),
        live: Some(live),
        ended: None,
        played: Played {
            sessions: 1,
            ..Played::default()
        },
        op: 0,
    };
    for (index, op) in ops.iter().enumerate() {
        player.op = index;
        player.step(op).await?;
    }
    let mut played = player.played;
    if let Some(live) = player.live {
        played.log = live.stop().await;
    }
    if let Some((ended, _)) = player.ended {
        // Its id is dead already; stopping it only closes the connection.
        drop(ended.stop().await);
    }
    Ok(played)
}

struct Player<'a> {
    config: &'a Config,
    model: Model,
    live: Option<Live>,
    /// The last session ended by DELETE, kept to send its id again.
    ended: Option<(Live, String)>,
    played: Played,
    op: usize,
}

impl Player<'_> {
    fn note(&mut self, line: String) {
        let n = self.played.story.len() + 1;
        self.played.story.push(format!("{n}. {line}"));
    }

    fn found(&mut self, breaches: Vec<Breach>) {
        let op = self.op;
        self.played
            .found
            .extend(breaches.into_iter().map(|breach| Found { breach, op }));
    }

    /// The current session, opening a new one when the last was ended.
    async fn session(&mut self) -> Result<&mut Live, String> {
        if self.live.is_none() {
            let (live, _) = open(self.config).await?;
            self.model.new_session();
            self.played.sessions += 1;
            self.note("a new session opened".into());
            self.live = Some(live);
        }
        self.live.as_mut().ok_or_else(|| "no session".to_owned())
    }

    /// Sends `method` with `params` on the current session; every
    /// notification that came meanwhile goes to the model.
    async fn request(&mut self, method: &str, params: Option<Value>) -> Result<Answer, String> {
        // Only one ordered stream shows that a notification was written
        // after the server answered an unsubscription. Over HTTP the
        // updates may come on the GET stream while the answer came on a
        // POST's: one written before the answer can be read after it, and a
        // warning then would be the tool's error. So the fence is armed
        // over stdio only, and over HTTP the rule is never judged.
        if matches!(self.config.target, crate::transport::Target::Stdio(_)) {
            self.model.request_sent();
        }
        let timeout = self.config.timeout;
        let live = self.session().await?;
        let raw = params.as_ref().map(Raw::from_value);
        let answered = live.driver_mut().request(method, raw, timeout).await;
        self.played.requests += 1;
        let answered = match answered {
            Ok(answered) => answered,
            Err(e) => return Ok(Answer::Missing(e.to_string())),
        };
        for other in &answered.others {
            let Ok(frame) = serde_json::from_slice::<Value>(&other.bytes) else {
                continue;
            };
            if let (Some(method), None) =
                (frame.get("method").and_then(Value::as_str), frame.get("id"))
            {
                let breaches = self.model.notification(method, frame.get("params"));
                if !breaches.is_empty() {
                    self.note(format!(
                        "the server sent `{method}` {}",
                        frame
                            .get("params")
                            .map_or_else(String::new, Value::to_string)
                    ));
                }
                self.found(breaches);
            }
        }
        Ok(answer_of(&answered.bytes))
    }

    async fn step(&mut self, op: &Op) -> Result<(), String> {
        match op {
            Op::Walk(list) => self.walk(*list).await,
            Op::Revisit(list) => {
                let Some(cursor) = self.model.revisit_cursor(*list) else {
                    return Ok(());
                };
                let answer = self
                    .request(list.method(), Some(json!({"cursor": cursor})))
                    .await?;
                self.note(format!(
                    "{} cursor=`{cursor}` (issued earlier) → {}",
                    list.method(),
                    answer.brief()
                ));
                let breaches = self.model.revisited(*list, &cursor, &answer);
                self.found(breaches);
                Ok(())
            }
            Op::BogusCursor(list) => {
                let cursor = self.model.bogus_cursor();
                let answer = self
                    .request(list.method(), Some(json!({"cursor": cursor})))
                    .await?;
                self.note(format!(
                    "{} cursor=`{cursor}` (never issued) → {}",
                    list.method(),
                    answer.brief()
                ));
                let breaches = self.model.bogus_answered(*list, &cursor, &answer);
                self.found(breaches);
                Ok(())
            }
            Op::Subscribe(n) | Op::Unsubscribe(n) => {
                let Some(uri) = self.model.resource(*n) else {
                    return Ok(());
                };
                let method = if matches!(op, Op::Subscribe(_)) {
                    "resources/subscribe"
                } else {
                    "resources/unsubscribe"
                };
                let answer = self.request(method, Some(json!({"uri": uri}))).await?;
                self.note(format!("{method} `{uri}` → {}", answer.brief()));
                if matches!(op, Op::Subscribe(_)) {
                    self.model.subscribed(&uri, &answer);
                } else {
                    self.model.unsubscribed(&uri, &answer);
                }
                Ok(())
            }
            Op::Ping => {
                let answer = self.request("ping", None).await?;
                self.note(format!("ping → {}", answer.brief()));
                Ok(())
            }
            Op::EndSession => self.end_session().await,
            Op::ReuseEnded => self.reuse_ended().await,
        }
    }

    async fn walk(&mut self, list: List) -> Result<(), String> {
        let mut walk = self.model.walk(list);
        let mut cursor: Option<String> = None;
        loop {
            let params = cursor.as_ref().map(|c| json!({"cursor": c}));
            let answer = self.request(list.method(), params).await?;
            let (breaches, next, words) = self.model.page(&mut walk, cursor.as_deref(), &answer);
            let sent = cursor
                .as_ref()
                .map_or_else(String::new, |c| format!(" cursor=`{c}`"));
            self.note(format!("{}{sent} → {words}", list.method()));
            self.found(breaches);
            match next {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        let breaches = self.model.walk_done(walk);
        self.found(breaches);
        Ok(())
    }

    /// DELETE of the current session (Streamable HTTP with a session id
    /// only; elsewhere nothing to do).
    async fn end_session(&mut self) -> Result<(), String> {
        let Some(mut live) = self.live.take() else {
            return Ok(());
        };
        let Some(id) = session_id(&mut live) else {
            self.live = Some(live);
            return Ok(());
        };
        let status = match live.driver_mut().transport_mut() {
            Wire::Streamable(peer) => peer.delete_session().await,
            _ => Err("not Streamable HTTP".into()),
        };
        self.played.requests += 1;
        match status {
            Ok(status) => {
                self.note(format!("DELETE session `{id}` → HTTP {status}"));
                self.model.session_ended(status);
                if let Some((old, _)) = self.ended.replace((live, id)) {
                    drop(old.stop().await);
                }
            }
            Err(e) => {
                self.note(format!("DELETE session `{id}` → no answer: {e}"));
                self.live = Some(live);
            }
        }
        Ok(())
    }

    /// A `ping` carrying the id of the session last ended with a 2xx DELETE.
    async fn reuse_ended(&mut self) -> Result<(), String> {
        if !self.model.has_ended_session() {
            return Ok(());
        }
        let Some((live, id)) = self.ended.as_mut() else {
            return Ok(());
        };
        let driver = live.driver_mut();
        let before = driver.transport().http_facts().len();
        if let Wire::Streamable(peer) = driver.transport_mut() {
            peer.set_session_id(Some(id.clone()));
        }
        let timeout = self.config.timeout;
        // The answer does not matter: the status does.
        let _ = driver.request("ping", None, timeout).await;
        self.played.requests += 1;
        let status = driver
            .transport()
            .http_facts()
            .get(before..)
            .and_then(|new| new.iter().rev().find(|f| f.method == "POST"))
            .map(|f| f.status);
        let id = id.clone();
        match status {
            Some(status) => {
                self.note(format!(
                    "ping with the ended session's id `{id}` → HTTP {status}"
                ));
                let breaches = self.model.reused(status);
                self.found(breaches);
            }
            None => self.note(format!(
                "ping with the ended session's id `{id}` → no HTTP answer"
            )),
        }
        Ok(())
    }
}

/// An answer's bytes as the model reads them.
fn answer_of(bytes: &[u8]) -> Answer {
    let Ok(frame) = serde_json::from_slice::<Value>(bytes) else {
        return Answer::Missing("the answer is not JSON".into());
    };
    if let Some(result) = frame.get("result") {
        return Answer::Result(result.clone());
    }
    match frame.get("error") {
        Some(error) => Answer::Error {
            code: error
                .get("code")
                .and_then(Value::as_i64)
                .unwrap_or_default(),
            message: error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
        },
        None => Answer::Missing("the answer holds neither result nor error".into()),
    }
}
