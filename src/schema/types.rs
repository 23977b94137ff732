//! What a table is made of: the column types ([`ColType`]), [`Column`] and
//! [`Table`], and the `base_table!` macro that declares a written table's
//! columns once (its [`Table`] and its builder struct). The vocabulary every
//! table file of the schema is written in, apart from the tables themselves.

use std::sync::Arc;

use arrow::datatypes::{DataType, Field, Schema, SchemaRef};

use super::version::{SCHEMA_VERSION, SCHEMA_VERSION_KEY};

/// Column type of a table column (a small subset of Arrow's types).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColType {
    Bool,
    UInt8,
    UInt16,
    UInt32,
    Int16,
    Int32,
    Int64,
    Float32,
    Float64,
    Utf8,
    /// Days since 1970-01-01.
    Date,
    /// A list of i32 (derived tables only).
    ListInt32,
}

impl ColType {
    fn arrow(self) -> DataType {
        match self {
            ColType::Bool => DataType::Boolean,
            ColType::UInt8 => DataType::UInt8,
            ColType::UInt16 => DataType::UInt16,
            ColType::UInt32 => DataType::UInt32,
            ColType::Int16 => DataType::Int16,
            ColType::Int32 => DataType::Int32,
            ColType::Int64 => DataType::Int64,
            ColType::Float32 => DataType::Float32,
            ColType::Float64 => DataType::Float64,
            ColType::Utf8 => DataType::Utf8,
            ColType::Date => DataType::Date32,
            ColType::ListInt32 => {
                DataType::List(Arc::new(Field::new("item", DataType::Int32, true)))
            }
        }
    }

    /// Short type name as printed by `evallab schema`.
    pub fn name(self) -> &'static str {
        match self {
            ColType::Bool => "bool",
            ColType::UInt8 => "u8",
            ColType::UInt16 => "u16",
            ColType::UInt32 => "u32",
            ColType::Int16 => "i16",
            ColType::Int32 => "i32",
            ColType::Int64 => "i64",
            ColType::Float32 => "f32",
            ColType::Float64 => "f64",
            ColType::Utf8 => "str",
            ColType::Date => "date",
            ColType::ListInt32 => "list<i32>",
        }
    }
}

/// One column of a table.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub name: &'static str,
    pub ty: ColType,
    pub nullable: bool,
    pub doc: &'static str,
}

pub(super) const fn c(
    name: &'static str,
    ty: ColType,
    nullable: bool,
    doc: &'static str,
) -> Column {
    Column {
        name,
        ty,
        nullable,
        doc,
    }
}

/// A table of a dataset: its name (also its folder in the dataset) and columns.
#[derive(Debug, Clone, Copy)]
pub struct Table {
    pub name: &'static str,
    pub doc: &'static str,
    pub columns: &'static [Column],
}

impl Table {
    /// The Arrow schema of the table, with the schema version in its metadata.
    pub fn arrow_schema(&self) -> SchemaRef {
        let fields: Vec<Field> = self
            .columns
            .iter()
            .map(|col| Field::new(col.name, col.ty.arrow(), col.nullable))
            .collect();
        let meta = [(SCHEMA_VERSION_KEY.to_string(), SCHEMA_VERSION.to_string())];
        let meta: std::collections::HashMap<String, String> = meta.into_iter().collect();
        Arc::new(Schema::new_with_metadata(fields, meta))
    }

    /// Looks up a column by name.
    pub fn column(&self, name: &str) -> Option<&'static Column> {
        self.columns.iter().find(|col| col.name == name)
    }
}

/// The Arrow builder type of a [`ColType`].
macro_rules! builder_of {
    (Bool) => {
        arrow::array::BooleanBuilder
    };
    (UInt8) => {
        arrow::array::UInt8Builder
    };
    (UInt16) => {
        arrow::array::UInt16Builder
    };
    (UInt32) => {
        arrow::array::UInt32Builder
    };
    (Int16) => {
        arrow::array::Int16Builder
    };
    (Int32) => {
        arrow::array::Int32Builder
    };
    (Int64) => {
        arrow::array::Int64Builder
    };
    (Float32) => {
        arrow::array::Float32Builder
    };
    (Float64) => {
        arrow::array::Float64Builder
    };
    (Utf8) => {
        arrow::array::StringBuilder
    };
    (Date) => {
        arrow::array::Date32Builder
    };
}

/// Declares a table that evallab writes row by row, each column once: the
/// [`Table`] constant (its Arrow schema and `evallab schema` text) and a builder
/// struct with one Arrow builder per column, in schema order, whose `finish`
/// makes the record batch. An entry is `field => (name, type, nullable, doc)`;
/// a compile-time check keeps each builder field named as its column.
macro_rules! base_table {
    (
        $(#[$meta:meta])*
        $table:ident, $builder:ident, $name:literal, $doc:literal,
        { $( $field:ident => ($cname:expr, $ty:ident, $nullable:expr, $cdoc:expr) ),* $(,)? }
    ) => {
        $(#[$meta])*
        pub const $table: Table = Table {
            name: $name,
            doc: $doc,
            columns: &[ $( c($cname, $ty, $nullable, $cdoc) ),* ],
        };

        #[doc = concat!("Arrow builders of [`", stringify!($table), "`], one per column, in schema order.")]
        #[derive(Default)]
        pub struct $builder {
            $( pub $field: builder_of!($ty), )*
        }

        impl $builder {
            /// The rows appended so far, as a record batch; the builders are reset.
            pub fn finish(&mut self) -> arrow::record_batch::RecordBatch {
                let columns: Vec<arrow::array::ArrayRef> =
                    vec![ $( Arc::new(self.$field.finish()) ),* ];
                arrow::record_batch::RecordBatch::try_new($table.arrow_schema(), columns)
                    .expect("builders are generated from the schema")
            }

            /// Rows appended so far.
            pub fn rows(&self) -> usize {
                [ $( arrow::array::ArrayBuilder::len(&self.$field) ),* ][0]
            }
        }

        $(
            const _: () = assert!(
                same_name(stringify!($field), $cname),
                concat!(stringify!($table), ": builder field `", stringify!($field), "` is not named as its column"),
            );
        )*
    };
}

pub(super) use {base_table, builder_of};

/// `field == column`, ignoring a raw identifier's `r#` (const: checked at compile time).
pub(super) const fn same_name(field: &str, column: &str) -> bool {
    let (f, c) = (field.as_bytes(), column.as_bytes());
    let skip = if f.len() > 2 && f[0] == b'r' && f[1] == b'#' {
        2
    } else {
        0
    };
    if f.len() - skip != c.len() {
        return false;
    }
    let mut i = 0;
    while i < c.len() {
        if f[i + skip] != c[i] {
            return false;
        }
        i += 1;
    }
    true
}
