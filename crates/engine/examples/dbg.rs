fn main() {
    let t = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    let r = roll_doctor_engine::diagnose(&t);
    println!("{}", serde_json::to_string_pretty(&r.segments).unwrap());
    println!("{:?}", r.findings.iter().map(|f| &f.id).collect::<Vec<_>>());
    let cat = roll_doctor_engine::catalogue();
    println!("{:?}", cat.errors);
}
