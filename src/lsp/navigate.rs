//! Go to definition (a reference to the object it names), find references (an object to every
//! reference that names it) and document symbols (the objects of a file).

use std::path::Path;

use lsp_types::{
    DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse, GotoDefinitionParams,
    GotoDefinitionResponse, Location, ReferenceParams, SymbolKind,
};

use crate::model::facts::Spec;
use crate::report::lsp::range;
use crate::resolve::Index;
use crate::run::Model;
use crate::source::Span;

use super::locate::{Cursor, fact_at, ref_at, refs_of};
use super::uri;
use super::workspace::Workspace;

/// The place of `span` in the run's file `file`.
fn location(ws: &Workspace, file: usize, span: Span) -> Option<Location> {
    let f = ws.run.files.get(file)?;
    Some(Location::new(
        uri::from_path(Path::new(&f.name))?,
        range(f, span),
    ))
}

pub fn definition(ws: &Workspace, p: GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
    let at = p.text_document_position_params;
    let cursor = Cursor::new(ws, &at.text_document.uri, at.position)?;
    let model = ws.run.model.as_ref()?;
    let i = fact_at(model, cursor.file.id, cursor.offset)?;
    let r = ref_at(&model.facts[i], cursor.offset)?;
    let index = Index::new(&model.facts, false);
    let t = r.target(&index)?;
    let target = &model.facts[t];
    // A sectionName (written, and the cursor on it) goes to the listener it names.
    let on_section = r
        .obj
        .section_span()
        .is_some_and(|s| s.start <= cursor.offset && cursor.offset <= s.end);
    let span = match (&target.spec, r.obj.section()) {
        (Spec::Gateway { listeners, .. } | Spec::ListenerSet { listeners, .. }, Some(name))
            if on_section =>
        {
            listeners
                .iter()
                .find(|l| l.name == name)
                .map_or(target.id.name_span, |l| l.span)
        }
        _ => target.id.name_span,
    };
    location(ws, target.id.file, span).map(GotoDefinitionResponse::Scalar)
}

/// Every reference that names object `t`.
fn naming(model: &Model, t: usize) -> Vec<(usize, Span)> {
    let index = Index::new(&model.facts, false);
    let mut out = Vec::new();
    for f in &model.facts {
        for r in refs_of(f) {
            if r.target(&index) == Some(t) {
                out.push((f.id.file, r.obj.span));
            }
        }
    }
    out
}

pub fn references(ws: &Workspace, p: ReferenceParams) -> Option<Vec<Location>> {
    let at = p.text_document_position;
    let cursor = Cursor::new(ws, &at.text_document.uri, at.position)?;
    let model = ws.run.model.as_ref()?;
    let i = fact_at(model, cursor.file.id, cursor.offset)?;
    // On a reference: the references of the object it names; else of the object itself.
    let t = match ref_at(&model.facts[i], cursor.offset) {
        Some(r) => r.target(&Index::new(&model.facts, false))?,
        None => i,
    };
    let mut out: Vec<Location> = naming(model, t)
        .into_iter()
        .filter_map(|(file, span)| location(ws, file, span))
        .collect();
    if p.context.include_declaration {
        let id = &model.facts[t].id;
        out.extend(location(ws, id.file, id.name_span));
    }
    Some(out)
}

pub fn symbols(ws: &Workspace, p: DocumentSymbolParams) -> Option<DocumentSymbolResponse> {
    let file = ws.file(&super::path_of(&p.text_document.uri)?)?;
    let model = ws.run.model.as_ref();
    let mut out = Vec::new();
    for res in ws.run.resources.iter().filter(|r| r.file == file.id) {
        let fact = model.and_then(|m| {
            m.facts
                .iter()
                .find(|f| f.id.file == file.id && f.id.span == res.span)
        });
        let selection = fact.map_or(res.span, |f| f.id.name_span);
        let children: Vec<DocumentSymbol> = match fact.map(|f| &f.spec) {
            Some(Spec::Gateway { listeners, .. } | Spec::ListenerSet { listeners, .. }) => {
                listeners
                    .iter()
                    .map(|l| {
                        symbol(
                            file,
                            l.name.clone(),
                            "listener",
                            SymbolKind::FIELD,
                            l.span,
                            l.span,
                            None,
                        )
                    })
                    .collect()
            }
            _ => Vec::new(),
        };
        let name = match &res.reference.namespace {
            Some(ns) => format!("{ns}/{}", res.reference.name),
            None => res.reference.name.clone(),
        };
        out.push(symbol(
            file,
            name,
            &res.reference.kind,
            SymbolKind::OBJECT,
            res.span,
            selection,
            (!children.is_empty()).then_some(children),
        ));
    }
    Some(DocumentSymbolResponse::Nested(out))
}

#[allow(deprecated)] // `deprecated` is a field the type still has.
fn symbol(
    file: &crate::source::SourceFile,
    name: String,
    detail: &str,
    kind: SymbolKind,
    span: Span,
    selection: Span,
    children: Option<Vec<DocumentSymbol>>,
) -> DocumentSymbol {
    DocumentSymbol {
        // The protocol refuses an empty name.
        name: if name.is_empty() {
            "<unnamed>".into()
        } else {
            name
        },
        detail: Some(detail.to_string()),
        kind,
        tags: None,
        deprecated: None,
        range: range(file, span),
        selection_range: range(file, selection),
        children,
    }
}
