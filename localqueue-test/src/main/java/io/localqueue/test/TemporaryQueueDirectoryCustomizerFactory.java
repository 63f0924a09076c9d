package io.localqueue.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;
import org.springframework.util.FileSystemUtils;

/**
 * Gives the context of a test class annotated with {@link AutoConfigureLocalQueue} a temporary {@code localqueue.path}
 * of its own, ahead of every other property source, and deletes the directory once the context's beans, the queue
 * file's among them, are destroyed.
 */
final class TemporaryQueueDirectoryCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
                                                              List<ContextConfigurationAttributes> configAttributes) {
        return TestContextAnnotationUtils.hasAnnotation(testClass, AutoConfigureLocalQueue.class)
                ? new TemporaryQueueDirectory() : null;
    }

    /** Every instance is equal, so that contexts stay cached across test classes as usual. */
    private static final class TemporaryQueueDirectory implements ContextCustomizer {

        private static final String SOURCE = "localqueue-test-directory";

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration merged) {
            Path directory = create();
            context.getEnvironment().getPropertySources()
                    .addFirst(new MapPropertySource(SOURCE, Map.of("localqueue.path", directory.toString())));
            Runnable delete = () -> delete(directory);
            // Registered before any bean, so destroyed after all of them: the queue file is closed by then.
            if (context.getBeanFactory() instanceof DefaultSingletonBeanRegistry beans) {
                beans.registerDisposableBean(SOURCE, delete::run);
            } else {
                context.addApplicationListener(new ApplicationListener<ContextClosedEvent>() {
                    @Override
                    public void onApplicationEvent(ContextClosedEvent closed) {
                        delete.run();
                    }
                });
            }
        }

        private static Path create() {
            try {
                return Files.createTempDirectory("localqueue-test-");
            } catch (IOException failure) {
                throw new UncheckedIOException("cannot create the temporary localqueue directory", failure);
            }
        }

        private static void delete(Path directory) {
            try {
                FileSystemUtils.deleteRecursively(directory);
            } catch (IOException failure) {
                throw new UncheckedIOException("cannot delete the temporary localqueue directory " + directory,
                        failure);
            }
        }

        @Override
        public boolean equals(@Nullable Object other) {
            return other instanceof TemporaryQueueDirectory;
        }

        @Override
        public int hashCode() {
            return TemporaryQueueDirectory.class.hashCode();
        }
    }
}
