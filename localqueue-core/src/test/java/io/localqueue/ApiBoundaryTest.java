package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Only {@code io.localqueue} and {@code io.localqueue.bus} are API: the module exports nothing else but the store seam,
 * to the PostgreSQL store's module alone, and no public member of a public API type
 * takes or returns an internal type, so internals cannot be reached by accident.
 */
class ApiBoundaryTest {

    @Test
    void theModuleExportsOnlyTheApiPackage() throws URISyntaxException {
        ModuleDescriptor descriptor = ModuleFinder.of(classesDirectory()).find("io.localqueue").orElseThrow()
                .descriptor();

        assertThat(descriptor.exports()).filteredOn(exports -> !exports.isQualified())
                .map(ModuleDescriptor.Exports::source)
                .containsExactlyInAnyOrder("io.localqueue", "io.localqueue.bus");
        assertThat(descriptor.exports()).filteredOn(ModuleDescriptor.Exports::isQualified)
                .allSatisfy(exports -> assertThat(exports.targets()).containsExactly("io.localqueue.postgresql"))
                .map(ModuleDescriptor.Exports::source)
                .containsExactlyInAnyOrder("io.localqueue.internal.store", "io.localqueue.internal.wakeup");
        assertThat(descriptor.opens()).isEmpty();
    }

    @Test
    void noPublicApiMemberSpeaksAnInternalType() throws URISyntaxException, IOException {
        List<String> leaks = new ArrayList<>();
        for (Class<?> type : apiTypes()) {
            for (Method method : type.getMethods()) {
                if (method.getDeclaringClass() == type) {
                    check(type, method, leaks);
                }
            }
            for (var constructor : type.getConstructors()) {
                check(type, constructor, leaks);
            }
            for (Field field : type.getFields()) {
                if (isInternal(field.getType())) {
                    leaks.add(type.getSimpleName() + "." + field.getName());
                }
            }
        }

        assertThat(leaks).isEmpty();
    }

    private static void check(Class<?> type, Executable member, List<String> leaks) {
        boolean leaking = Stream.of(member.getParameterTypes()).anyMatch(ApiBoundaryTest::isInternal)
                || (member instanceof Method method && isInternal(method.getReturnType()));
        if (leaking) {
            leaks.add(type.getSimpleName() + "." + member.getName());
        }
    }

    private static boolean isInternal(Class<?> type) {
        Class<?> element = type.isArray() ? type.getComponentType() : type;
        return element.getPackageName().startsWith("io.localqueue.internal");
    }

    private static List<Class<?>> apiTypes() throws URISyntaxException, IOException {
        List<Class<?>> types = new ArrayList<>();
        for (String apiPackage : List.of("io.localqueue", "io.localqueue.bus")) {
            Path api = classesDirectory().resolve(apiPackage.replace('.', '/'));
            try (Stream<Path> files = Files.list(api)) {
                for (Path file : files.filter(path -> path.toString().endsWith(".class")).toList()) {
                    String name = file.getFileName().toString().replace(".class", "");
                    if (name.equals("package-info")) {
                        continue;
                    }
                    Class<?> type = forName(apiPackage + "." + name);
                    if (Modifier.isPublic(type.getModifiers()) && (type.getDeclaringClass() == null
                            || Modifier.isPublic(type.getDeclaringClass().getModifiers()))) {
                        types.add(type);
                    }
                }
            }
        }
        assertThat(types).contains(SimpleQueue.class, Worker.class, SimpleQueue.Builder.class);
        return types;
    }

    private static Class<?> forName(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException missing) {
            throw new AssertionError(missing);
        }
    }

    private static Path classesDirectory() throws URISyntaxException {
        return Path.of(SimpleQueue.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
