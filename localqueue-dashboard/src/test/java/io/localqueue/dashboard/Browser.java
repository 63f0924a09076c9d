package io.localqueue.dashboard;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The machine's own headless Chromium, driven through its ChromeDriver: nothing is downloaded. A test that needs it is
 * skipped, saying how to run it, on a machine without Debian's {@code chromium} and {@code chromium-driver}.
 */
final class Browser implements AutoCloseable {

    static final Path CHROMIUM = Path.of(System.getProperty("localqueue.test.chromium", "/usr/bin/chromium"));
    static final Path CHROMEDRIVER = Path.of(System.getProperty("localqueue.test.chromedriver",
            "/usr/bin/chromedriver"));

    /** Where screenshots go when {@code -Dlocalqueue.dashboard.screenshots=DIR} asks for them. */
    private static final String SCREENSHOTS = System.getProperty("localqueue.dashboard.screenshots");

    final ChromeDriver driver;
    final WebDriverWait wait;

    private Browser(ChromeDriver driver) {
        this.driver = driver;
        this.wait = new WebDriverWait(driver, Duration.ofSeconds(20));
    }

    /** Starts a browser with a fresh profile in {@code profile}, or skips the test when the machine has none. */
    static Browser start(Path profile) {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "the browser tests need Chromium and its driver at " + CHROMIUM + " and " + CHROMEDRIVER
                        + ": install them with 'apt-get install chromium chromium-driver' (Debian), or point "
                        + "-Dlocalqueue.test.chromium and -Dlocalqueue.test.chromedriver at them");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1360,860", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        return new Browser(new ChromeDriver(service, options));
    }

    void open(String url) {
        driver.get(url);
    }

    WebElement shown(String css) {
        return until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
    }

    /** Clicks the element once it can be clicked; a live refresh that replaced it meanwhile makes it look again. */
    void click(String css) {
        until(driver -> {
            try {
                WebElement element = driver.findElement(By.cssSelector(css));
                if (!element.isDisplayed() || !element.isEnabled()) {
                    return null;
                }
                element.click();
                return true;
            } catch (org.openqa.selenium.NoSuchElementException | org.openqa.selenium.StaleElementReferenceException
                     notYet) {
                return null;
            }
        });
    }

    void waitForText(String css, String text) {
        until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(css), text));
    }

    /** Waits for a condition; a timeout reports what the page showed, so a failure says more than "not found". */
    private <T> T until(java.util.function.Function<? super org.openqa.selenium.WebDriver, T> condition) {
        try {
            return wait.until(condition);
        } catch (org.openqa.selenium.TimeoutException timeout) {
            throw new AssertionError(timeout.getMessage().lines().findFirst().orElse("timed out") + "; the page at "
                    + driver.getCurrentUrl() + " showed:\n" + driver.findElement(By.tagName("body")).getText(),
                    timeout);
        }
    }

    /** Posts an action from the page, as a script of its own origin could, and returns the HTTP status. */
    long postFromPage(String path, String json, boolean withCsrf) {
        Object status = driver.executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                const headers = {'Content-Type': 'application/json'};
                const header = document.querySelector('meta[name="localqueue-csrf-header"]').content;
                const token = document.querySelector('meta[name="localqueue-csrf-token"]').content;
                if (arguments[2] && header) headers[header] = token;
                fetch(arguments[0], {method: 'POST', headers, body: arguments[1], credentials: 'same-origin'})
                    .then(r => done(r.status), e => done(-1));""", path, json, withCsrf);
        return ((Number) status).longValue();
    }

    /** Saves a screenshot of the page as {@code name}.png, when screenshots were asked for. */
    void screenshot(String name) {
        if (SCREENSHOTS == null) {
            return;
        }
        File shot = driver.getScreenshotAs(OutputType.FILE);
        try {
            Path target = Path.of(SCREENSHOTS).resolve(name + ".png");
            Files.createDirectories(target.getParent());
            Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    @Override
    public void close() {
        driver.quit();
    }
}
