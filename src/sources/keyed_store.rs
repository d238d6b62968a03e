//! greenroom's own small state files of one value per row id, for the rows
//! whose files it never writes (snoozes, looks): a hidden file in the
//! sidecar folder (never read as a sidecar, watched with the folder),
//! `{"version": 1, FIELD: {ROW_ID: VALUE}}`. One reader and writer, so
//! each such file is bounded, read as untrusted and replaced atomically
//! the same way; what a value means stays with its own module.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use serde::de::{DeserializeOwned, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserializer, Serialize, Serializer};

use super::atomic::write_atomic;
use super::read_text_file;
use super::sidecar::SidecarError;

/// What one state file is: its name, the field its entries sit under (also
/// the word for them in a reason: "holds over 10000 snoozes"), what a bad
/// one is called, and how many entries greenroom ever writes.
#[derive(Debug)]
pub struct Kind {
    /// The file's name in the sidecar folder.
    pub file: &'static str,
    /// The field of the entries, the plural word for them.
    pub field: &'static str,
    /// The file's name in a reason: "is not a valid {noun}".
    pub noun: &'static str,
    /// More entries than this in a file is not greenroom's writing.
    pub max: usize,
}

/// One state file of values by row id.
#[derive(Debug)]
pub struct KeyedStore<V> {
    kind: &'static Kind,
    path: PathBuf,
    value: PhantomData<fn() -> V>,
}

// By hand: a derive would ask `V: Clone`, which the store never holds.
impl<V> Clone for KeyedStore<V> {
    fn clone(&self) -> Self {
        Self {
            kind: self.kind,
            path: self.path.clone(),
            value: PhantomData,
        }
    }
}

impl<V: Serialize + DeserializeOwned> KeyedStore<V> {
    pub fn new(sidecar_dir: &Path, kind: &'static Kind) -> Self {
        Self {
            kind,
            path: sidecar_dir.join(kind.file),
            value: PhantomData,
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The entries; a missing file is none, a bad one is the reason.
    pub fn load(&self) -> Result<BTreeMap<String, V>, String> {
        if std::fs::symlink_metadata(&self.path).is_err() {
            return Ok(BTreeMap::new());
        }
        let text = read_text_file(&self.path)?;
        self.parse(&text)
    }

    /// Changes the entries with `change` and writes them back. The file is
    /// replaced atomically; a bad file counts as empty and is replaced
    /// rather than kept, since it holds nothing but these entries.
    pub fn update(
        &self,
        change: impl FnOnce(&mut BTreeMap<String, V>),
    ) -> Result<(), SidecarError> {
        let mut entries = self.load().unwrap_or_default();
        change(&mut entries);
        let file = FileOut {
            field: self.kind.field,
            entries: &entries,
        };
        let mut bytes = serde_json::to_vec_pretty(&file).map_err(|e| SidecarError::Io {
            context: format!("cannot encode {}", self.kind.field),
            source: std::io::Error::other(e),
        })?;
        bytes.push(b'\n');
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| SidecarError::Io {
                context: format!("cannot create {}", dir.display()),
                source: e,
            })?;
        }
        Ok(write_atomic(&self.path, &bytes)?)
    }

    fn parse(&self, text: &str) -> Result<BTreeMap<String, V>, String> {
        let Kind {
            field, noun, max, ..
        } = *self.kind;
        let mut de = serde_json::Deserializer::from_str(text);
        let entries = FileIn::<V> {
            field,
            value: PhantomData,
        }
        .deserialize(&mut de)
        .and_then(|entries| de.end().map(|()| entries))
        .map_err(|e| format!("is not a valid {noun}: {e}"))?;
        if entries.len() > max {
            return Err(format!("holds over {max} {field}"));
        }
        Ok(entries)
    }
}

/// The file as written: the version, then the entries under their field.
struct FileOut<'a, V> {
    field: &'static str,
    entries: &'a BTreeMap<String, V>,
}

impl<V: Serialize> Serialize for FileOut<'_, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("version", &1u32)?;
        map.serialize_entry(self.field, self.entries)?;
        map.end()
    }
}

/// The file as read: an object whose `version` (when there) is a number
/// and whose entries (when there) sit under the field; anything else in it
/// is passed over, a field given twice is refused.
struct FileIn<V> {
    field: &'static str,
    value: PhantomData<fn() -> V>,
}

impl<'de, V: DeserializeOwned> DeserializeSeed<'de> for FileIn<V> {
    type Value = BTreeMap<String, V>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, V: DeserializeOwned> Visitor<'de> for FileIn<V> {
    type Value = BTreeMap<String, V>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "an object with a version and {}", self.field)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        use serde::de::Error;
        let (mut version, mut entries) = (None, None);
        while let Some(key) = map.next_key::<String>()? {
            if key == "version" {
                if version.is_some() {
                    return Err(A::Error::duplicate_field("version"));
                }
                version = Some(map.next_value::<u32>()?);
            } else if key == self.field {
                if entries.is_some() {
                    return Err(A::Error::duplicate_field(self.field));
                }
                entries = Some(map.next_value::<BTreeMap<String, V>>()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(entries.unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOTES: Kind = Kind {
        file: ".notes.json",
        field: "notes",
        noun: "notes file",
        max: 3,
    };

    fn store(dir: &Path) -> KeyedStore<u32> {
        KeyedStore::new(dir, &NOTES)
    }

    #[test]
    fn entries_round_trip_in_the_files_own_field() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(dir.path());
        assert!(store.load().unwrap().is_empty(), "no file is no entries");
        store
            .update(|e| {
                e.insert("a".into(), 7);
            })
            .unwrap();
        store
            .update(|e| {
                e.insert("b".into(), 8);
            })
            .unwrap();
        let text = std::fs::read_to_string(store.path()).unwrap();
        assert_eq!(
            text,
            "{\n  \"version\": 1,\n  \"notes\": {\n    \"a\": 7,\n    \"b\": 8\n  }\n}\n"
        );
        assert_eq!(store.load().unwrap().len(), 2);
    }

    #[test]
    fn a_file_greenroom_did_not_write_is_a_reason() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(dir.path());
        let reason = |text: &str| {
            std::fs::write(store.path(), text).unwrap();
            store.load().unwrap_err()
        };
        assert!(reason("{not json").starts_with("is not a valid notes file: "));
        assert!(reason(r#"{"version": "1"}"#).contains("not a valid notes file"));
        assert!(reason(r#"{"notes": {"a": "x"}}"#).contains("not a valid notes file"));
        assert!(reason(r#"{"notes": {}, "notes": {}}"#).contains("duplicate field"));
        assert!(reason(r#"{"notes": {}} trailing"#).contains("not a valid notes file"));
        let four = r#"{"notes": {"a": 1, "b": 2, "c": 3, "d": 4}}"#;
        assert_eq!(reason(four), "holds over 3 notes");
        // Another field, or none, is passed over: a newer greenroom's file.
        std::fs::write(store.path(), r#"{"version": 2, "other": [1]}"#).unwrap();
        assert!(store.load().unwrap().is_empty());
        std::os::unix::fs::symlink("/dev/null", dir.path().join("link")).unwrap();
        let linked = KeyedStore::<u32>::new(
            dir.path(),
            &Kind {
                file: "link",
                ..NOTES
            },
        );
        assert!(linked.load().unwrap_err().contains("symbolic link"));
    }

    #[test]
    fn a_bad_file_is_replaced_by_the_next_update() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(dir.path().join("new").as_path());
        store.update(|_| ()).unwrap();
        std::fs::write(store.path(), "{not json").unwrap();
        store
            .update(|e| {
                e.insert("x".into(), 1);
            })
            .unwrap();
        assert_eq!(store.load().unwrap().get("x"), Some(&1));
    }
}
