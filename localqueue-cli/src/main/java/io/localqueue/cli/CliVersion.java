package io.localqueue.cli;

import io.localqueue.LocalQueueDatabase;
import picocli.CommandLine;

/** What {@code --version} prints: the library's version, as the jar was built. */
final class CliVersion implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        Package own = LocalQueueDatabase.class.getPackage();
        String version = own == null ? null : own.getImplementationVersion();
        return new String[] {"localqueue " + (version == null ? "(development build)" : version)};
    }
}
