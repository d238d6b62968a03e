//! `git diff --numstat -z`: lines added and removed per file; binary files
//! have no counts (`-\t-`).

/// One file's counts; `None` for a binary file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Numstat {
    pub path: Vec<u8>,
    pub added: Option<u64>,
    pub removed: Option<u64>,
}

/// Parses the output, skipping what does not fit. Renames are asked off
/// (`--no-renames`), but their three-field form is read all the same.
pub fn parse(out: &[u8]) -> Vec<Numstat> {
    let mut list = Vec::new();
    let mut records = out.split(|b| *b == 0);
    while let Some(record) = records.next() {
        if record.is_empty() {
            continue;
        }
        let mut parts = record.splitn(3, |b| *b == b'\t');
        let (Some(a), Some(r), Some(path)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let path = if path.is_empty() {
            // A rename: the source, then the destination, follow.
            let _from = records.next();
            match records.next() {
                Some(to) => to.to_vec(),
                None => continue,
            }
        } else {
            path.to_vec()
        };
        let number = |b: &[u8]| std::str::from_utf8(b).ok()?.parse::<u64>().ok();
        list.push(Numstat {
            path,
            added: number(a),
            removed: number(r),
        });
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_binaries_and_renames() {
        let list = parse(b"3\t1\tsrc/a.rs\0-\t-\tlogo.png\x002\t0\t\0old\0new\0junk\0");
        assert_eq!(list.len(), 3);
        assert_eq!((list[0].added, list[0].removed), (Some(3), Some(1)));
        assert_eq!(list[1].added, None);
        assert_eq!(list[2].path, b"new".to_vec());
    }
}
