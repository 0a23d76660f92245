//! Running a task only while this replica leads. Every replica serves the API; the loops and
//! controllers that write (the garbage collector, the namespace finalizer, the token and
//! cluster controllers, the engine) run only on the replica holding the controller lease,
//! which the plane's elector (`controllers::leader`) campaigns for. The gate lives with the
//! server because the server's own loops need it; the plane hands the same gate to the
//! client-side controllers. With SQLite there is one replica and no election.

use std::future::Future;

use tokio::sync::watch;
use tokio::task::{AbortHandle, JoinHandle};

/// Starts controllers on this replica while it leads.
#[derive(Clone)]
pub struct Leading(Option<watch::Receiver<bool>>);

impl Leading {
    /// No election: controllers run at once and for good (a single replica).
    pub fn always() -> Leading {
        Leading(None)
    }

    /// Loops wait until `leading` says this replica leads (the plane's elector sends it).
    pub fn following(leading: watch::Receiver<bool>) -> Leading {
        Leading(Some(leading))
    }

    /// Runs the controller that `make` builds while this replica leads: started when it wins
    /// the lease, aborted when it loses it, started afresh when it wins again. Aborting the
    /// returned handle stops the controller too.
    pub fn spawn<F, Fut>(&self, make: F) -> JoinHandle<()>
    where
        F: Fn() -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let Some(rx) = &self.0 else {
            return tokio::spawn(make());
        };
        let mut rx = rx.clone();
        tokio::spawn(async move {
            loop {
                if rx.wait_for(|leading| *leading).await.is_err() {
                    return;
                }
                let task = tokio::spawn(make());
                let _stop = AbortOnDrop(task.abort_handle());
                tokio::select! {
                    lost = rx.wait_for(|leading| !*leading) => {
                        if lost.is_err() {
                            return;
                        }
                    }
                    _ = task => return,
                }
            }
        })
    }
}

/// Aborts a task when dropped, so aborting a supervisor also stops what it started.
struct AbortOnDrop(AbortHandle);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::sync::mpsc;

    /// Sends "stopped" when the controller task is dropped (aborted or finished).
    struct Stopped(mpsc::UnboundedSender<&'static str>);

    impl Drop for Stopped {
        fn drop(&mut self) {
            let _ = self.0.send("stopped");
        }
    }

    #[tokio::test]
    async fn controllers_run_only_while_leading() {
        let (elector, rx) = watch::channel(false);
        let leading = Leading::following(rx);
        let (tx, mut rx) = mpsc::unbounded_channel();
        let supervisor = leading.spawn(move || {
            let tx = tx.clone();
            async move {
                let _guard = Stopped(tx.clone());
                let _ = tx.send("started");
                std::future::pending::<()>().await;
            }
        });
        // Not leading yet: nothing starts until the lease is won.
        tokio::task::yield_now().await;
        assert!(rx.try_recv().is_err());
        elector.send_replace(true);
        assert_eq!(rx.recv().await, Some("started"));
        elector.send_replace(false);
        assert_eq!(rx.recv().await, Some("stopped"));
        elector.send_replace(true);
        assert_eq!(rx.recv().await, Some("started"), "a regained lease starts the controller afresh");
        supervisor.abort();
        assert_eq!(rx.recv().await, Some("stopped"), "stopping the supervisor stops the controller");
    }

    #[tokio::test]
    async fn without_election_controllers_start_at_once() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let _task = Leading::always().spawn(move || {
            let tx = tx.clone();
            async move {
                let _ = tx.send("started");
            }
        });
        assert_eq!(rx.recv().await, Some("started"));
    }
}
