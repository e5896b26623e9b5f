import Foundation
import GRDB

extension HistoryStore {
  /// The migrations in order; a store's version is how many of them it has applied. A new
  /// version appends one and never edits an earlier one.
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1: machines, runs and cells") { db in
      // A machine class, as a results file describes it; the CPU model is '' where the file
      // does not give it.
      try db.execute(
        sql: """
          CREATE TABLE machine (
            id INTEGER PRIMARY KEY,
            description TEXT NOT NULL,
            cpu_model TEXT NOT NULL,
            architecture TEXT,
            cores INTEGER,
            memory_gib INTEGER,
            UNIQUE (description, cpu_model)
          );
          CREATE TABLE run (
            id INTEGER PRIMARY KEY,
            run_id TEXT NOT NULL,
            started_at TEXT NOT NULL,
            commit_hash TEXT NOT NULL,
            machine_id INTEGER NOT NULL REFERENCES machine(id),
            toolchain TEXT NOT NULL,
            jemalloc TEXT NOT NULL,
            matrix TEXT NOT NULL,
            source TEXT NOT NULL,
            recorded_at TEXT NOT NULL,
            UNIQUE (run_id, started_at, commit_hash)
          );
          CREATE INDEX run_by_machine_and_time ON run (machine_id, started_at);
          CREATE TABLE cell (
            run INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
            scene TEXT NOT NULL,
            variant TEXT NOT NULL,
            views INTEGER NOT NULL,
            solver TEXT NOT NULL,
            mode TEXT NOT NULL,
            phase TEXT NOT NULL,
            status TEXT NOT NULL,
            variables INTEGER NOT NULL,
            constraints INTEGER NOT NULL,
            repetitions INTEGER NOT NULL,
            median_ns INTEGER,
            min_ns INTEGER,
            p90_ns INTEGER,
            max_ns INTEGER,
            allocations INTEGER,
            allocated_bytes INTEGER,
            retained_bytes INTEGER,
            peak_bytes INTEGER,
            instructions INTEGER,
            checksum TEXT,
            note TEXT,
            samples_ns TEXT,
            PRIMARY KEY (run, scene, variant, views, solver, mode, phase)
          ) WITHOUT ROWID;
          CREATE INDEX cell_by_series ON cell (scene, variant, phase, solver, mode, views);
          """)
    }
    return migrator
  }

  /// How many migrations this build knows: the newest schema it reads and writes.
  public static var schemaVersion: Int { migrator.migrations.count }

  /// Checks the store's schema against this build's and, when writing, migrates it. A store
  /// with a migration this build does not know is refused before anything is written.
  func prepareSchema(writing: Bool) throws(HistoryError) {
    let migrator = Self.migrator
    let known = Set(migrator.migrations)
    // Two processes creating the same store at once: the one that loses the race to migrate
    // waits for the other, then finds the schema current.
    var attempt = 0
    func appliedMigrations() throws -> Set<String> {
      try database.read { db in
        try db.tableExists("grdb_migrations") ? try migrator.appliedIdentifiers(db) : []
      }
    }
    while true {
      do {
        let applied = try appliedMigrations()
        // Reading the schema is what first touches the file: a file that is not a database
        // fails here, before anything is written to it.
        if let unknown = applied.subtracting(known).sorted().first {
          throw HistoryError(
            .newerSchema,
            "\(path) was written by a newer bench (its schema has '\(unknown)', this bench knows "
              + "\(known.count) version(s)); use that bench, or another --store")
        }
        guard applied.count < known.count else { return }
        guard writing else {
          throw HistoryError(
            .badInput,
            "\(path) has an older schema (version \(applied.count) of \(known.count)); record a "
              + "run with this bench (bench history add) to migrate it")
        }
        do {
          try migrator.migrate(database)
        } catch let error as DatabaseError where error.resultCode != .SQLITE_BUSY {
          // Both read the schema before either migrated: the other's migration landed first,
          // and this one, run after it, failed making the tables it made ("table machine
          // already exists"), rolled back. Read again: if the schema moved, go round.
          guard attempt < 20, try appliedMigrations() != applied else { throw error }
          attempt += 1
          continue
        }
        return
      } catch let error as HistoryError {
        throw error
      } catch let error as DatabaseError
        where error.resultCode == .SQLITE_BUSY && attempt < 20
      {
        attempt += 1
        usleep(50_000)
      } catch let error as DatabaseError {
        throw HistoryError.database(error, path: path)
      } catch {
        throw HistoryError(.database, "\(path): \(error)")
      }
    }
  }
}
