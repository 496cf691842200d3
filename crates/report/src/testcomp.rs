//! The Test-Comp test-suite format (`--test-suite DIR`), as Test-Comp's
//! validators (TestCov) read it: `metadata.xml` (program, its SHA-256,
//! entry function, architecture, specification, producer, creation time)
//! and one `testcase-N.xml` per counterexample, whose `<input>` elements
//! are the values of the program's nondet calls in the order the program
//! makes them.

use crate::Report;
use engine::Verdict;

/// The specification a test suite of a violation covers: reaching the error.
const COVER_ERROR: &str = "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )";

/// What the metadata says of the program.
pub struct Program<'a> {
    pub file: &'a str,
    pub text: &'a [u8],
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    pub creation_time: &'a str,
}

/// The files of the suite (name, contents); an error when the run found
/// no counterexample.
pub fn render(report: &Report, program: &Program) -> Result<Vec<(String, String)>, String> {
    let Verdict::False(cex) = &report.outcome.verdict else {
        return Err("no test suite: the run found no counterexample".into());
    };
    let ir_program = report.program.ok_or("no test suite: the program is not available")?;
    let entry = ir_program.entry.map_or("main".to_string(), |f| ir_program.functions[f].name.clone());
    let architecture = match ir_program.data_model {
        ir::DataModel::ILP32 => "32bit",
        ir::DataModel::LP64 => "64bit",
    };
    let metadata = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n\
         <!DOCTYPE test-metadata PUBLIC \"+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN\" \"https://sosy-lab.org/test-format/test-metadata-1.1.dtd\">\n\
         <test-metadata>\n  <sourcecodelang>C</sourcecodelang>\n  <producer>tarsier {}</producer>\n  <specification>{COVER_ERROR}</specification>\n  \
         <programfile>{}</programfile>\n  <programhash>{}</programhash>\n  <entryfunction>{}</entryfunction>\n  <architecture>{architecture}</architecture>\n  \
         <creationtime>{}</creationtime>\n</test-metadata>\n",
        env!("CARGO_PKG_VERSION"),
        escape(program.file),
        crate::sha256::hex_digest(program.text),
        escape(&entry),
        escape(program.creation_time)
    );
    let mut testcase = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n\
         <!DOCTYPE testcase PUBLIC \"+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN\" \"https://sosy-lab.org/test-format/testcase-1.1.dtd\">\n\
         <testcase coversError=\"true\">\n",
    );
    for (spelling, input) in crate::harness::nondet_call_values(ir_program, cex) {
        testcase += &format!("  <input type=\"{}\">{}</input>\n", escape(&spelling), escape(&crate::harness::c_literal(ir_program, input)));
    }
    testcase += "</testcase>\n";
    Ok(vec![("metadata.xml".into(), metadata), ("testcase-1.xml".into(), testcase)])
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_for_xml() {
        assert_eq!(escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
    }
}
