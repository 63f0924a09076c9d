package io.localqueue.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.sqlite.SQLiteJDBCLoader;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The SQLite driver's version is set once, in the BOM applications import; the build inherits it, and the guides
 * tell applications under Boot's parent the same version.
 */
class SqliteDriverVersionTest {

    private static final Path ROOT = Path.of("..");
    private static final Path BOM = ROOT.resolve("localqueue-bom").resolve("pom.xml");

    @Test
    void theBomStandsAloneAndManagesTheModulesAndTheDriver() throws Exception {
        Element project = read(BOM);

        assertThat(child(project, "parent")).as("a BOM with a parent would leak its parent's versions").isNull();
        assertThat(text(project, "packaging")).isEqualTo("pom");
        assertThat(text(project, "artifactId")).isEqualTo("localqueue-bom");
        assertThat(managed(project)).containsEntry("io.localqueue:localqueue-core", "${project.version}")
                .containsEntry("io.localqueue:localqueue-spring-boot-autoconfigure", "${project.version}")
                .containsEntry("io.localqueue:localqueue-spring-boot-starter", "${project.version}")
                .containsEntry("org.xerial:sqlite-jdbc", "${sqlite-jdbc.version}");
    }

    @Test
    void theBuildIsAModuleOfTheRootAndRunsTheBomsDriver() throws Exception {
        Element root = read(ROOT.resolve("pom.xml"));

        assertThat(texts(child(root, "modules"), "module")).contains("localqueue-bom");
        assertThat(text(child(root, "parent"), "artifactId")).isEqualTo("localqueue-bom");
        assertThat(SQLiteJDBCLoader.getVersion()).isEqualTo(bomDriverVersion());
    }

    @Test
    void theGuidesGiveTheOverrideUnderBootsParentAndTheBomImport() throws Exception {
        String override = "<sqlite-jdbc.version>" + bomDriverVersion() + "</sqlite-jdbc.version>";
        String readme = Files.readString(ROOT.resolve("README.md"));
        String guide = Files.readString(ROOT.resolve("docs").resolve("spring-boot.md"));

        assertThat(readme).contains(override).contains("localqueue-bom");
        assertThat(guide).contains(override).contains("<artifactId>localqueue-bom</artifactId>");
        assertThat(guide.indexOf("<artifactId>localqueue-bom</artifactId>"))
                .as("the BOM is imported before Boot's").isLessThan(
                        guide.indexOf("<artifactId>spring-boot-dependencies</artifactId>"));
    }

    private static String bomDriverVersion() throws Exception {
        return text(child(read(BOM), "properties"), "sqlite-jdbc.version");
    }

    private static Map<String, String> managed(Element project) {
        Map<String, String> versions = new LinkedHashMap<>();
        Element dependencies = child(child(project, "dependencyManagement"), "dependencies");
        for (Element dependency : children(dependencies, "dependency")) {
            versions.put(text(dependency, "groupId") + ":" + text(dependency, "artifactId"),
                    text(dependency, "version"));
        }
        return versions;
    }

    private static Element read(Path pom) throws Exception {
        Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
        return document.getDocumentElement();
    }

    private static Element child(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node node = nodes.item(i);
            if (node instanceof Element element && element.getTagName().equals(name)) {
                found.add(element);
            }
        }
        return found;
    }

    private static String text(Element parent, String name) {
        Element element = child(parent, name);
        return element == null ? null : element.getTextContent().trim();
    }

    private static List<String> texts(Element parent, String name) {
        return children(parent, name).stream().map(element -> element.getTextContent().trim()).toList();
    }
}
